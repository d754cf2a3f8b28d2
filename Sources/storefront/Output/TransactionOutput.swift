import Foundation
import StoreCore

/// How transactions appear in tables and in the `--json` contract.
enum TransactionOutput {
    /// A date as ISO 8601 in UTC, e.g. `2026-11-30T13:14:22Z`.
    static func date(_ date: Date) -> String {
        utcSeconds(date)
            ?? date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(separator: .omitted))
    }

    /// `date(_:)` computed directly, for dates from 1970 to 9999 at least a millisecond from the
    /// next whole second (Foundation's formatter gives the rest, whose rounding stays its own):
    /// a history prints a date per row, and the format style costs more than the rest of it.
    static func utcSeconds(_ date: Date) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { bytes in
            utcSeconds(date, into: bytes) ? String(decoding: bytes.prefix(20), as: UTF8.self) : nil
        }
    }

    /// Writes `utcSeconds(_:)`'s 20 bytes into `bytes` (at least 20 of them); `false` (nothing
    /// written) for the dates it leaves to Foundation.
    static func utcSeconds(_ date: Date, into bytes: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let interval = date.timeIntervalSince1970
        guard interval >= 0, interval < 253_402_300_800, interval - interval.rounded(.down) < 0.999 else { return false }
        let seconds = Int(interval)
        let (days, time) = seconds.quotientAndRemainder(dividingBy: 86_400)
        // Days since 1970 to a proleptic Gregorian date (eras of 400 years from 0000-03-01).
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func put(_ value: Int, _ digits: Int, at offset: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, 4, at: 0)
        put(month, 2, at: 5)
        put(day, 2, at: 8)
        put(time / 3600, 2, at: 11)
        put(time / 60 % 60, 2, at: 14)
        put(time % 60, 2, at: 17)
        (bytes[4], bytes[7], bytes[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
        (bytes[13], bytes[16], bytes[19]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "Z"))
        return true
    }

    /// One transaction as a JSON object, members in contract order.
    static func json(_ t: Transaction, state: String? = nil) -> JSONText {
        var members: [(String, JSONText)] = [
            ("transactionID", .string(t.transactionID)),
            ("originalTransactionID", .string(t.originalTransactionID)),
            ("productID", .string(t.productID)),
            ("productType", .string(t.productType.rawValue)),
            ("quantity", .number(String(t.quantity))),
            ("purchaseDate", .string(date(t.purchaseDate))),
            ("state", .string(state ?? t.state.rawValue)),
        ]
        if let expires = t.expiresDate { members.append(("expiresDate", .string(date(expires)))) }
        if let revoked = t.revocationDate { members.append(("revocationDate", .string(date(revoked)))) }
        if let reason = t.revocationReason { members.append(("revocationReason", .number(String(reason)))) }
        if let web = t.webOrderLineItemID { members.append(("webOrderLineItemID", .string(web))) }
        if let group = t.subscriptionGroupID { members.append(("subscriptionGroupID", .string(group))) }
        if let offer = t.offerType { members.append(("offerType", .string(offer.rawValue))) }
        if let offerID = t.offerID { members.append(("offerID", .string(offerID))) }
        if t.isUpgraded { members.append(("isUpgraded", .bool(true))) }
        if let price = t.price { members.append(("price", .string("\(price)"))) }
        if let currency = t.currencyCode { members.append(("currencyCode", .string(currency))) }
        if let storefront = t.storefront { members.append(("storefront", .string(storefront))) }
        if let user = t.payment.applicationUsername { members.append(("applicationUsername", .string(user))) }
        if let token = t.appAccountToken { members.append(("appAccountToken", .string(token.uuidString.lowercased()))) }
        if !t.payment.orderData.isEmpty {
            members.append(("orderData", .object(t.payment.orderData.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        if let error = t.error { members.append(("error", .string(error.description))) }
        return .object(members)
    }

    /// Transactions as table lines, newest last.
    static func table(_ transactions: [(Transaction, String)]) -> [String] {
        var lines: [String] = []
        table(transactions.map { (TransactionSummary($0.0), $0.1) }) { lines.append($0) }
        return lines
    }

    /// Summaries as table lines, newest last, handed to `line` one at a time.
    static func table(_ transactions: [(TransactionSummary, String)], line: (String) -> Void) {
        table(transactions, bytes: { line(String(decoding: $0, as: UTF8.self)) })
    }

    /// Summaries as table lines in UTF-8 (no newline), newest last, handed to `line` one at a
    /// time from a buffer reused for every line (`TextTable.render(bytes:)`).
    static func table(_ transactions: [(TransactionSummary, String)], bytes line: (UnsafeRawBufferPointer) -> Void) {
        TextTable(
            columns: [
                .init(header: "TRANSACTION"), .init(header: "ORIGINAL"), .init(header: "PRODUCT", maximumWidth: 44),
                .init(header: "QTY", alignment: .right), .init(header: "DATE"), .init(header: "STATE"),
            ],
            rows: transactions.map { t, state in
                [t.transactionID, t.originalTransactionID, t.productID, String(t.quantity), date(t.purchaseDate), state]
            }
        ).render(bytes: line)
    }
}
