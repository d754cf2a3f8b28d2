import Foundation
import Testing

@testable import StoreCore
@testable import storefront

/// `HistoryTable` lays out, byte for byte, the lines `TransactionOutput.table` lays out, and
/// leaves to it (writing nothing) every table outside its one-byte-a-column form.
@Suite struct HistoryTableTests {
    static func summary(
        _ id: String, product: String = "com.storefront.demo.coins.100", quantity: Int = 1,
        date: Date = Date(timeIntervalSince1970: 1_795_000_000.25), original: String? = nil,
        state: TransactionState = .purchased, revoked: Date? = nil
    ) -> TransactionSummary {
        TransactionSummary(
            transactionID: id, originalTransactionID: original ?? id, productID: product, productType: .consumable,
            quantity: quantity, purchaseDate: date, state: state, revocationDate: revoked)
    }

    static func generic(_ delivered: [TransactionSummary], _ pending: [TransactionSummary]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        TransactionOutput.table(
            delivered.map { ($0, TransactionOutput.state(of: $0)) } + pending.map { ($0, "pending") }
        ) { lines.append(Array($0)) }
        return lines
    }

    static func direct(_ delivered: [TransactionSummary], _ pending: [TransactionSummary]) -> [[UInt8]]? {
        var lines: [[UInt8]] = []
        return HistoryTable.write(delivered, pending: pending) { lines.append(Array($0)) } ? lines : nil
    }

    @Test func plainTablesAreTheGenericTablesBytes() throws {
        let delivered = [
            Self.summary("2000000000000001"),
            Self.summary(
                "2000000000000002", product: "com.storefront.demo.premium.basic.monthly", quantity: 12,
                original: "2000000000000001"),
            Self.summary("r-1", product: String(repeating: "p", count: 44), quantity: -3, state: .restored),
            Self.summary("x", product: "", quantity: 1_000_000, date: Date(timeIntervalSince1970: 0), revoked: Date()),
            Self.summary(
                "y", date: Date(timeIntervalSince1970: 253_402_300_799), state: TransactionState(rawValue: "")),
        ]
        let pending = [Self.summary("2000000000000009", product: "com.storefront.demo.hints.5")]
        for (d, p) in [(delivered, pending), (delivered, []), ([], pending), (Array(delivered.prefix(1)), [])] {
            let direct = try #require(Self.direct(d, p))
            #expect(direct == Self.generic(d, p))
        }
    }

    /// A table with a monthly payment of a 12-month commitment has a COMMITMENT column, empty
    /// for the other rows; without one it has none.
    @Test func aCommitmentsPaymentsSayWhereTheyStand() throws {
        func payment(_ id: String, _ number: Int) -> TransactionSummary {
            TransactionSummary(
                transactionID: id, originalTransactionID: "2000000000000001",
                productID: "com.storefront.demo.premium.pro.yearly", productType: .autoRenewable, quantity: 1,
                purchaseDate: Date(timeIntervalSince1970: 1_795_000_000), state: .purchased, revocationDate: nil,
                commitmentInfo: Transaction.CommitmentInfo(
                    billingPeriodNumber: number, totalBillingPeriods: 12, price: Decimal(string: "95.88")!,
                    expirationDate: Date(timeIntervalSince1970: 1_828_180_800)))
        }
        let delivered = [
            payment("2000000000000001", 1), Self.summary("2000000000000002"), payment("2000000000000003", 3),
        ]
        let pending = [payment("2000000000000004", 4)]
        for (d, p) in [(delivered, pending), (delivered, []), ([], pending)] {
            let direct = try #require(Self.direct(d, p))
            #expect(direct == Self.generic(d, p))
        }
        let lines = try #require(Self.direct(delivered, pending)).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines[0].hasSuffix("STATE      COMMITMENT"), "\(lines[0])")
        #expect(lines[2].hasSuffix("purchased  payment 1 of 12, commitment ends 2027-12-07"), "\(lines[2])")
        #expect(lines[3].hasSuffix("purchased"), "a row of no commitment has an empty cell: \(lines[3])")
        #expect(lines[4].hasSuffix("purchased  payment 3 of 12, commitment ends 2027-12-07"), "\(lines[4])")
        #expect(lines[5].hasSuffix("pending    payment 4 of 12, commitment ends 2027-12-07"), "\(lines[5])")
        let plain = try #require(Self.direct([Self.summary("2000000000000002")], []))
        #expect(!String(decoding: plain[0], as: UTF8.self).contains("COMMITMENT"))
    }

    @Test func anythingElseIsLeftToTheGenericTable() {
        let plain = Self.summary("2000000000000001")
        let outside = [
            Self.summary("é"), Self.summary("t", product: "com.storefront.🍎"), Self.summary("t", original: "tab\there"),
            Self.summary("t", product: String(repeating: "p", count: 45)),
            Self.summary("t", date: Date(timeIntervalSince1970: -1)),
            Self.summary("t", date: Date(timeIntervalSince1970: 253_402_300_800)),
            Self.summary("t", date: Date(timeIntervalSince1970: 1_795_000_000.9995)),
        ]
        for summary in outside {
            #expect(Self.direct([plain, summary], []) == nil, "\(summary)")
            #expect(Self.direct([plain], [summary]) == nil, "\(summary)")
            #expect(!Self.generic([plain, summary], []).isEmpty)
        }
    }
}
