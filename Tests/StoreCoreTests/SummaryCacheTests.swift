import Foundation
import TestSupport
import Testing
import Vault

@testable import StoreCore

/// `history`'s rows kept in the vault's derived cache (`SummaryCacheRow`): a listing from the
/// cache gives the rows the whole transactions give, in the same order, before and after
/// refunds, removals and new purchases, and a row round-trips exactly.
@Suite struct SummaryCacheTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    var data: URL { dir.url.appendingPathComponent("data") }

    func open() throws -> VaultLedger { try VaultLedger.open(inDataDirectory: data, environment: [:]) }

    var cache: URL { data.appendingPathComponent("vault.sfv.derived-" + SummaryCacheRow.derivation.name) }

    static func transaction(_ id: Int) -> Transaction {
        let product = ["coins", "pro", "basic", "pass"][id % 4]
        let type: ProductType = [.consumable, .nonConsumable, .autoRenewable, .nonRenewing][id % 4]
        return Transaction(
            transactionID: "t-\(id)", originalTransactionID: id % 4 == 2 && id > 10 ? "t-2" : nil, productID: product,
            productType: type, payment: Payment(productID: product, quantity: type == .consumable ? id % 5 + 1 : 1),
            state: id % 9 == 4 ? .restored : .purchased,
            purchaseDate: Date(
                timeIntervalSinceReferenceDate: 800_000_000 + Double(id) * 61.125 + (id % 7 == 0 ? 0.1 : 0)),
            subscriptionGroupID: type == .autoRenewable ? "g" : nil,
            billingPlanType: type == .autoRenewable ? (id % 3 == 0 ? .monthly : .billedUpfront) : nil,
            commitmentInfo: type == .autoRenewable && id % 3 == 0
                ? Transaction.CommitmentInfo(
                    billingPeriodNumber: id % 12 + 1, totalBillingPeriods: 12, price: Decimal(string: "95.88")!,
                    expirationDate: Date(timeIntervalSinceReferenceDate: 831_536_000 + Double(id) * 0.5)) : nil)
    }

    func expectRowsOfTheWholeTransactions(_ ledger: VaultLedger, _ comment: Comment) throws {
        #expect(try ledger.transactionSummaries() == ledger.transactions().map(TransactionSummary.init), comment)
        #expect(try open().transactionSummaries() == ledger.transactions().map(TransactionSummary.init), comment)
    }

    @Test func rowsFromTheCacheAreTheWholeTransactionsRows() throws {
        let ledger = try open()
        // Past the vault's 1,024 records, so it keeps an index (and the listing a cache).
        try ledger.recordAll((0..<1_200).map(Self.transaction))
        try expectRowsOfTheWholeTransactions(try open(), "first listing")
        #expect(FileManager.default.fileExists(atPath: cache.path))
        try expectRowsOfTheWholeTransactions(try open(), "from the cache")
        // Later versions, removals and new purchases, past more index rewrites.
        for id in stride(from: 5, to: 1_200, by: 97) {
            var refunded = try #require(try ledger.transaction(withID: "t-\(id)"))
            refunded.revocationDate = refunded.purchaseDate.addingTimeInterval(33.5)
            try ledger.update(refunded)
        }
        for id in stride(from: 11, to: 1_200, by: 113) { #expect(try ledger.remove(transactionID: "t-\(id)")) }
        for id in 1_200..<1_700 { #expect(try ledger.record(Self.transaction(id))) }
        try expectRowsOfTheWholeTransactions(ledger, "after changes")
        try expectRowsOfTheWholeTransactions(ledger, "after changes, from the cache")
        try ledger.removeAll()
        #expect(try open().transactionSummaries().isEmpty)
    }

    @Test func aRowRoundTripsExactly() throws {
        var strings = TransactionSummaryScanner.Strings()
        let summaries = [
            TransactionSummary(Self.transaction(3)),
            TransactionSummary(
                transactionID: "é-\u{0}-id", originalTransactionID: "other", productID: "",
                productType: ProductType(rawValue: "future"),
                quantity: -2, purchaseDate: Date(timeIntervalSinceReferenceDate: -1e12 + 0.000_001),
                state: TransactionState(rawValue: "x"),
                revocationDate: Date(timeIntervalSinceReferenceDate: 0.1 + 0.2)),
            TransactionSummary(
                transactionID: "m-3", originalTransactionID: "m-1", productID: "pro.yearly",
                productType: .autoRenewable, quantity: 1, purchaseDate: Date(timeIntervalSinceReferenceDate: 1e9),
                state: .purchased, revocationDate: nil,
                commitmentInfo: Transaction.CommitmentInfo(
                    billingPeriodNumber: 3, totalBillingPeriods: 12, price: Decimal(string: "95.88")!,
                    expirationDate: Date(timeIntervalSinceReferenceDate: 1e9 + 0.1 + 0.2))),
        ]
        for (index, summary) in summaries.enumerated() {
            var row: [UInt8] = []
            SummaryCacheRow.append(summary, order: UInt64(index) << 40 | 7, to: &row)
            let read = try #require(row.withUnsafeBytes { SummaryCacheRow.read($0, strings: &strings) })
            #expect(read.0 == summary)
            #expect(
                read.0.purchaseDate.timeIntervalSinceReferenceDate.bitPattern
                    == summary.purchaseDate.timeIntervalSinceReferenceDate.bitPattern)
            #expect(read.order == UInt64(index) << 40 | 7)
            #expect(
                read.0.commitmentInfo?.expirationDate.timeIntervalSinceReferenceDate.bitPattern
                    == summary.commitmentInfo?.expirationDate.timeIntervalSinceReferenceDate.bitPattern)
            // Cut short or with a byte more, it is no row.
            for cut in [0, 31, row.count - 1] {
                #expect(Array(row.prefix(cut)).withUnsafeBytes { SummaryCacheRow.read($0, strings: &strings) } == nil)
            }
            #expect((row + [0]).withUnsafeBytes { SummaryCacheRow.read($0, strings: &strings) } == nil)
        }
    }
}
