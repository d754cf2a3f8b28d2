import Foundation
internal import Vault

/// What `VaultLedger.transactionSummaries()` keeps of each transaction in the vault's derived
/// cache (`Vault.forEachDerived`): the `TransactionSummary` the scan made of the record and the
/// record's `order` attribute, exactly (dates as the bits of their `Double`), so a listing from
/// the cache prints what a listing from the records prints.
///
/// Layout (little-endian): order 8 ‖ purchase date 8 ‖ revocation date 8 (all ones: none) ‖
/// quantity 8 ‖ then five strings, each a UInt32 length and UTF-8: transaction ID, original
/// transaction ID (length 0xFFFFFFFF: the transaction ID again), product ID, product type, state
/// ‖ for a payment of a 12-month commitment only: its number 8 ‖ the number of payments 8 ‖ the
/// commitment's end 8 ‖ its price as a string (the `Decimal`'s description).
enum SummaryCacheRow {
    /// The derivation; its version changes whenever these bytes, or what the scan makes of a
    /// record, would change.
    static let derivation = VaultDerivation(name: "transaction-summaries", version: 2)

    private static let none = UInt64.max
    private static let same = UInt32.max

    /// Appends the row of `summary`, recorded with `order`, to `bytes`.
    static func append(_ summary: TransactionSummary, order: UInt64, to bytes: inout [UInt8]) {
        func integer<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func string(_ text: String) {
            integer(UInt32(text.utf8.count))
            bytes += text.utf8
        }
        integer(order)
        integer(summary.purchaseDate.timeIntervalSinceReferenceDate.bitPattern)
        integer(summary.revocationDate?.timeIntervalSinceReferenceDate.bitPattern ?? none)
        integer(Int64(summary.quantity))
        string(summary.transactionID)
        if summary.originalTransactionID == summary.transactionID {
            integer(same)
        } else {
            string(summary.originalTransactionID)
        }
        string(summary.productID)
        string(summary.productType.rawValue)
        string(summary.state.rawValue)
        if let commitment = summary.commitmentInfo {
            integer(Int64(commitment.billingPeriodNumber))
            integer(Int64(commitment.totalBillingPeriods))
            integer(commitment.expirationDate.timeIntervalSinceReferenceDate.bitPattern)
            string("\(commitment.price)")
        }
    }

    /// The summary and order in `row`, or `nil` when it is not a row; `strings` keeps the
    /// product IDs, types and states met so far, so a listing makes each once.
    static func read(
        _ row: UnsafeRawBufferPointer, strings: inout TransactionSummaryScanner.Strings
    ) -> (TransactionSummary, order: UInt64)? {
        guard row.count >= 32 else { return nil }
        func integer(_ at: Int) -> UInt64 {
            UInt64(littleEndian: row.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        var position = 32
        func text() -> UnsafeBufferPointer<UInt8>? {
            guard row.count - position >= 4 else { return nil }
            let length = Int(UInt32(littleEndian: row.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
            guard length != Int(same), row.count - position - 4 >= length else { return nil }
            defer { position += 4 + length }
            return UnsafeRawBufferPointer(rebasing: row[(position + 4)..<(position + 4 + length)]).assumingMemoryBound(
                to: UInt8.self)
        }
        guard let id = text() else { return nil }
        let transactionID = String(decoding: id, as: UTF8.self)
        let originalTransactionID: String
        if row.count - position >= 4, row.loadUnaligned(fromByteOffset: position, as: UInt32.self) == same.littleEndian
        {
            position += 4
            originalTransactionID = transactionID
        } else {
            guard let original = text() else { return nil }
            originalTransactionID = String(decoding: original, as: UTF8.self)
        }
        guard let product = text().map({ strings.string($0) }), let type = text().map({ strings.string($0) }),
            let state = text().map({ strings.string($0) })
        else { return nil }
        var commitment: Transaction.CommitmentInfo?
        if position < row.count {
            guard row.count - position >= 24 else { return nil }
            let number = Int(Int64(bitPattern: integer(position)))
            let total = Int(Int64(bitPattern: integer(position + 8)))
            let end = Date(timeIntervalSinceReferenceDate: Double(bitPattern: integer(position + 16)))
            position += 24
            guard let price = text().flatMap({ Decimal(string: String(decoding: $0, as: UTF8.self)) }) else {
                return nil
            }
            commitment = Transaction.CommitmentInfo(
                billingPeriodNumber: number, totalBillingPeriods: total, price: price, expirationDate: end)
        }
        guard position == row.count else { return nil }
        let revocation = integer(16)
        let summary = TransactionSummary(
            transactionID: transactionID, originalTransactionID: originalTransactionID, productID: product,
            productType: ProductType(rawValue: type), quantity: Int(Int64(bitPattern: integer(24))),
            purchaseDate: Date(timeIntervalSinceReferenceDate: Double(bitPattern: integer(8))),
            state: TransactionState(rawValue: state),
            revocationDate: revocation == none
                ? nil : Date(timeIntervalSinceReferenceDate: Double(bitPattern: revocation)),
            commitmentInfo: commitment)
        return (summary, integer(0))
    }
}
