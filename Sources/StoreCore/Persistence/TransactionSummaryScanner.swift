import Foundation

/// Reads a `TransactionSummary` straight from the JSON a ledger stores for a `Transaction`
/// (what `JSONEncoder` writes): one pass over the bytes, the eight members taken, everything
/// else (the signed transaction's few kilobytes among it) skipped by its JSON grammar.
///
/// It takes only a plain subset: ASCII throughout, no escape inside a member it takes, no
/// `null` for one, none given twice, a quantity that is a plain integer, no `commitmentInfo`. Outside it, it gives
/// up and `decode` asks `JSONDecoder`, which gives the answer (or the error) it always gave; so
/// a listing decodes as it did, at a small fraction of the cost (issue 13).
enum TransactionSummaryScanner {
    /// The summary in `data`, from the scan when it can, else from `decoder`.
    /// - Throws: what `decoder` throws for data the scan leaves to it.
    static func decode(_ data: Data, fallback decoder: JSONDecoder) throws -> TransactionSummary {
        var strings = Strings()
        return try data.withUnsafeBytes { try decode($0, fallback: decoder, strings: &strings) }
    }

    /// The summary in `bytes` (a record's data, borrowed), from the scan when it can, else
    /// from `decoder`; `strings` keeps the product IDs met so far, so a listing makes each once.
    /// - Throws: what `decoder` throws for data the scan leaves to it.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, fallback decoder: JSONDecoder, strings: inout Strings
    ) throws -> TransactionSummary {
        if let summary = scan(bytes, strings: &strings) { return summary }
        return try decoder.decode(TransactionSummary.self, from: Data(bytes))
    }

    /// The summary in `bytes`, or `nil` when they are outside the subset the scan takes.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> TransactionSummary? {
        var strings = Strings()
        return scan(bytes, strings: &strings)
    }

    static func scan(_ bytes: UnsafeRawBufferPointer, strings: inout Strings) -> TransactionSummary? {
        var cursor = Cursor(bytes.bindMemory(to: UInt8.self))
        var fields = Fields()
        guard cursor.object(depth: 0, member: { key, cursor in fields.take(key, &cursor, &strings) }) else {
            return nil
        }
        cursor.skipSpace()
        guard cursor.atEnd else { return nil }
        return fields.summary
    }

    /// Strings a listing meets again and again (product IDs: a history has few products), kept
    /// so that each is made once; a string is reused only when its bytes are the same.
    struct Strings {
        private var kept: [String] = []
        /// The kept strings' UTF-8, end to end, and where each one lies in it: compared without
        /// touching (retaining) the strings themselves, one lookup a record.
        private var keptBytes: [UInt8] = []
        private var ranges: [Range<Int>] = []
        /// Enough for any catalog's products in a typical history; beyond it strings are made.
        private static let limit = 32

        init() {}

        mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            let found = keptBytes.withUnsafeBufferPointer { all -> Int? in
                for (index, range) in ranges.enumerated() where range.count == bytes.count {
                    if range.isEmpty { return index }
                    if memcmp(all.baseAddress! + range.lowerBound, bytes.baseAddress!, range.count) == 0 {
                        return index
                    }
                }
                return nil
            }
            if let found { return kept[found] }
            let made = String(decoding: bytes, as: UTF8.self)
            if kept.count < Self.limit {
                kept.append(made)
                ranges.append(keptBytes.count..<(keptBytes.count + bytes.count))
                keptBytes.append(contentsOf: bytes)
            }
            return made
        }
    }

    /// The members a summary needs, as the scan finds them.
    private struct Fields {
        var transactionID: String?
        var originalTransactionID: String?
        var productID: String?
        var productType: String?
        var quantity: Int?
        var purchaseDate: Double?
        var state: String?
        var revocationDate: Double?
        /// The members taken so far, one bit each (`Member.rawValue`).
        var seen: UInt16 = 0

        enum Member: Int, CaseIterable {
            case transactionID, originalTransactionID, productID, productType, state, purchaseDate, revocationDate,
                payment

            /// The member `key` names, if the summary takes it (the keys' lengths all differ).
            init?(_ key: UnsafeBufferPointer<UInt8>) {
                let member: Member
                switch key.count {
                case 13: member = .transactionID
                case 21: member = .originalTransactionID
                case 9: member = .productID
                case 11: member = .productType
                case 5: member = .state
                case 12: member = .purchaseDate
                case 14: member = .revocationDate
                case 7: member = .payment
                default: return nil
                }
                guard Cursor.equal(key, member.name) else { return nil }
                self = member
            }

            /// The key (`Transaction`'s coding key).
            var name: StaticString {
                switch self {
                case .transactionID: "transactionID"
                case .originalTransactionID: "originalTransactionID"
                case .productID: "productID"
                case .productType: "productType"
                case .state: "state"
                case .purchaseDate: "purchaseDate"
                case .revocationDate: "revocationDate"
                case .payment: "payment"
                }
            }
        }

        /// Takes the value of member `key` (or skips it): `false` when it is outside the subset.
        mutating func take(_ key: UnsafeBufferPointer<UInt8>, _ cursor: inout Cursor, _ strings: inout Strings) -> Bool
        {
            guard let member = Member(key) else {
                // A monthly payment's place in its commitment (a few a year) is left to JSONDecoder.
                return Cursor.equal(key, "commitmentInfo") ? false : cursor.skipValue(depth: 1)
            }
            let bit: UInt16 = 1 << member.rawValue
            guard seen & bit == 0 else { return false }
            seen |= bit
            switch member {
            case .transactionID:
                transactionID = cursor.plainString()
                return transactionID != nil
            case .originalTransactionID:
                // Nearly always the transaction's own ID: its string again, when the bytes are.
                originalTransactionID = cursor.plainString { body in
                    transactionID.flatMap { Cursor.equal(body, $0) ? $0 : nil } ?? String(decoding: body, as: UTF8.self)
                }
                return originalTransactionID != nil
            case .productID:
                productID = cursor.plainString { strings.string($0) }
                return productID != nil
            case .productType:
                productType = cursor.plainString()
                return productType != nil
            case .state:
                state = cursor.plainString()
                return state != nil
            case .purchaseDate:
                purchaseDate = cursor.number()
                return purchaseDate != nil
            case .revocationDate:
                revocationDate = cursor.number()
                return revocationDate != nil
            case .payment:
                let scanned = cursor.object(depth: 1) { key, cursor in
                    guard Cursor.equal(key, "quantity") else { return cursor.skipValue(depth: 2) }
                    guard quantity == nil else { return false }
                    quantity = cursor.integer()
                    return quantity != nil
                }
                return scanned && quantity != nil
            }
        }

        /// The summary, when every member `TransactionSummary.init(from:)` requires is here.
        var summary: TransactionSummary? {
            guard let transactionID, let productID, let productType, let quantity, let purchaseDate, let state else {
                return nil
            }
            return TransactionSummary(
                transactionID: transactionID, originalTransactionID: originalTransactionID ?? transactionID,
                productID: productID, productType: ProductType(rawValue: productType), quantity: quantity,
                purchaseDate: Date(timeIntervalSinceReferenceDate: purchaseDate),
                state: TransactionState(rawValue: state),
                revocationDate: revocationDate.map { Date(timeIntervalSinceReferenceDate: $0) })
        }
    }
}
