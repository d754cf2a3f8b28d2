import Foundation
import TestSupport
import Testing
import Vault

@testable import StoreCore

/// The vault ledger's aggregates: entitlements, statuses and balances read without the whole
/// history, and always the same answers as the whole history gives.
@Suite(.timeLimit(.minutes(10)))
struct VaultLedgerAggregateTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func open() throws -> VaultLedger {
        try VaultLedger.open(inDataDirectory: dir.url.appendingPathComponent("data"), environment: [:])
    }

    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func transaction(
        _ id: Int, product: String, type: ProductType, group: String? = nil, at offset: Double, expires: Double? = nil
    ) -> Transaction {
        Transaction(
            transactionID: "\(id)", originalTransactionID: group.map { _ in "1\(product.count)" }, productID: product,
            productType: type, payment: Payment(productID: product, quantity: type == .consumable ? id % 3 + 1 : 1),
            state: .purchased, purchaseDate: start.addingTimeInterval(offset),
            expiresDate: expires.map { start.addingTimeInterval($0) }, subscriptionGroupID: group)
    }

    /// Whatever the calculator makes of every transaction, it makes of the entitlement ones,
    /// at any time, after random purchases, renewals, refunds, expiries and upgrades.
    @Test func entitlementsAndStatusesFromTheAggregatesEqualThoseFromTheWholeHistory() throws {
        let ledger = try open()
        let counted = try Self.drive(ledger)
        #expect(try ledger.entitlementTransactions().count < ledger.transactions().count / 2)
        #expect(try open().balances() == counted, "from another process")
    }

    /// The file ledger leaves out only the consumables, and the answers stay the same.
    @Test func theFileLedgersEntitlementTransactionsGiveTheSameAnswers() throws {
        let ledger = try FileLedger(path: dir.url.appendingPathComponent("ledger.jsonl").path)
        _ = try Self.drive(ledger)
        #expect(
            try ledger.entitlementTransactions().map(\.transactionID)
                == ledger.transactions().filter { $0.productType != .consumable }.map(\.transactionID))
    }

    /// Random purchases, renewals, refunds, expiries and upgrades, checking the answers as it goes.
    /// - Returns: the consumables' balances, counted from every transaction.
    @discardableResult
    static func drive(_ ledger: any PurchaseLedger) throws -> [String: Int] {
        var rng = SeededGenerator(state: 0xA66_0001)
        let calculator = EntitlementCalculator(nonRenewingDuration: { _ in SubscriptionPeriod(value: 1, unit: .month) })
        var recorded: [Transaction] = []
        for step in 1...400 {
            let roll = Int.random(in: 0..<100, using: &rng)
            let offset = Double(step) * 60
            if roll < 10, !recorded.isEmpty {
                // A later version of something recorded: refunded, expired early, upgraded.
                var changed = recorded[Int.random(in: 0..<recorded.count, using: &rng)]
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: changed.revocationDate = Self.start.addingTimeInterval(offset)
                case 1:
                    changed.expiresDate = changed.expiresDate.map { _ in
                        Self.start.addingTimeInterval(offset - Double.random(in: 0..<20_000, using: &rng))
                    }
                default: changed.isUpgraded = changed.productType == .autoRenewable
                }
                try ledger.update(changed)
                recorded[recorded.firstIndex { $0.transactionID == changed.transactionID }!] = changed
                continue
            }
            let t: Transaction =
                switch roll {
                case ..<40: Self.transaction(step, product: "coins", type: .consumable, at: offset)
                case ..<50:
                    Self.transaction(step, product: ["pro", "theme"][step % 2], type: .nonConsumable, at: offset)
                case ..<60: Self.transaction(step, product: "pass", type: .nonRenewing, at: offset)
                default:
                    Self.transaction(
                        step, product: ["basic", "plus"][step % 2], type: .autoRenewable,
                        group: ["g1", "g2"][step % 3 == 0 ? 1 : 0],
                        at: offset, expires: offset + Double.random(in: -5_000..<40_000, using: &rng))
                }
            #expect(try ledger.record(t))
            recorded.append(t)
            if step % 3 == 0 { try Self.expectSameAnswers(ledger, calculator, step: step) }
        }
        try Self.expectSameAnswers(ledger, calculator, step: 400)
        // Balances come from the counters: the same as counting every transaction.
        var counted: [String: Int] = [:]
        for t in try ledger.transactions() where t.productType == .consumable {
            counted[t.productID, default: 0] += t.quantity
        }
        #expect(try ledger.balances() == counted)
        return counted
    }

    static func expectSameAnswers(_ ledger: any PurchaseLedger, _ calculator: EntitlementCalculator, step: Int) throws {
        let all = try ledger.transactions().map(PurchaseRecord.init)
        let some = try ledger.entitlementTransactions().map(PurchaseRecord.init)
        let subscriptions = try ledger.subscriptionTransactions().map(PurchaseRecord.init)
        #expect(subscriptions.allSatisfy { $0.productType == .autoRenewable })
        for minutes in stride(from: 0, through: 800, by: 97) {
            let now = start.addingTimeInterval(Double(minutes) * 60)
            #expect(
                calculator.currentEntitlements(records: some, renewalInfo: [], at: now)
                    == calculator.currentEntitlements(records: all, renewalInfo: [], at: now),
                "step \(step), at \(minutes) min")
            #expect(
                calculator.statuses(records: some, renewalInfo: [], at: now)
                    == calculator.statuses(records: all, renewalInfo: [], at: now), "step \(step), at \(minutes) min")
            #expect(
                calculator.statuses(records: subscriptions, renewalInfo: [], at: now)
                    == calculator.statuses(records: all, renewalInfo: [], at: now), "step \(step), at \(minutes) min")
        }
    }

    /// The group's latest transaction moving back (an early expiry, an upgrade) makes an
    /// earlier one the latest again.
    @Test func whenTheLatestMovesBackAnEarlierOneIsTheLatestAgain() throws {
        let ledger = try open()
        let first = Self.transaction(1, product: "basic", type: .autoRenewable, group: "g", at: 0, expires: 1_000)
        var second = Self.transaction(2, product: "basic", type: .autoRenewable, group: "g", at: 500, expires: 2_000)
        _ = try ledger.record(first)
        _ = try ledger.record(second)
        #expect(try ledger.entitlementTransactions().map(\.transactionID) == ["2"])
        second.expiresDate = Self.start.addingTimeInterval(900)
        try ledger.update(second)
        #expect(try ledger.entitlementTransactions().map(\.transactionID) == ["1"])
        second.expiresDate = Self.start.addingTimeInterval(2_000)
        try ledger.update(second)
        #expect(try open().entitlementTransactions().map(\.transactionID) == ["2"])
        second.isUpgraded = true
        try ledger.update(second)
        #expect(try open().entitlementTransactions().map(\.transactionID) == ["1"])
        var refunded = first
        refunded.revocationDate = Self.start.addingTimeInterval(950)
        try ledger.update(refunded)
        #expect(
            try open().entitlementTransactions().first?.revocationDate == refunded.revocationDate,
            "the copy follows the refund")
    }

    /// A ledger written before the aggregates (transactions and consumption counters only) gets
    /// them on first use, with the same answers.
    @Test func aLedgerWrittenBeforeTheAggregatesGetsThemOnFirstUse() throws {
        let vault = try open().vault
        // As the ledger of format 1 wrote them.
        let encoder = JSONEncoder()
        let history = [
            Self.transaction(1, product: "coins", type: .consumable, at: 0),
            Self.transaction(2, product: "pro", type: .nonConsumable, at: 60),
            Self.transaction(3, product: "basic", type: .autoRenewable, group: "g1", at: 120, expires: 10_000),
            Self.transaction(4, product: "coins", type: .consumable, at: 180),
        ]
        for (index, t) in history.enumerated() {
            let counted = t.productType == .consumable ? t.quantity : 0
            try vault.upsert(
                service: "storefront.transactions", account: t.transactionID,
                VaultItemContent(
                    data: try encoder.encode(t), label: t.productID,
                    attributes: ["productID": t.productID, "counted": "\(counted)", "order": "\(index + 1)"]))
        }
        try vault.upsert(service: "storefront.consumed", account: "coins", VaultItemContent(data: Data("1".utf8)))
        let ledger = try open()
        #expect(try ledger.balances() == ["coins": history[0].quantity + history[3].quantity - 1])
        #expect(try ledger.entitlementTransactions().map(\.transactionID) == ["2", "3"])
        #expect(
            try vault.get(service: "storefront.ledger", account: "format").map {
                String(decoding: $0.data, as: UTF8.self)
            } == VaultLedger.currentFormat)
        // Made once: recording goes on from them.
        #expect(try ledger.record(Self.transaction(5, product: "coins", type: .consumable, at: 240)))
        #expect(
            try open().balance(of: "coins") == history[0].quantity + history[3].quantity - 1
                + Self.transaction(5, product: "coins", type: .consumable, at: 0).quantity)
    }

    @Test func consumingIsOneAtomicReadAndWriteAcrossLedgers() throws {
        let a = try open()
        let b = try open()
        _ = try a.record(Self.transaction(7, product: "coins", type: .consumable, at: 0))  // 2 units
        #expect(try b.consume(productID: "coins", quantity: 1) == 1)
        #expect(try a.consume(productID: "coins", quantity: 1) == 0)
        #expect(throws: LedgerError.insufficientBalance(productID: "coins", balance: 0, requested: 1)) {
            try b.consume(productID: "coins", quantity: 1)
        }
        #expect(try a.balances().isEmpty)
    }
}

/// The vault ledger's digest of its transaction IDs (`Store.auditLedger()`'s first
/// comparison), an aggregate too: always the digest of the whole history, and made on first
/// use in a ledger of format 2, which had none.
extension VaultLedgerAggregateTests {
    func whole(_ ledger: VaultLedger) throws -> TransactionDigest {
        TransactionDigest(ids: try ledger.transactions().map(\.transactionID))
    }

    @Test func theDigestIsTheWholeHistorysAfterRecordsRemovalsAndRemoveAll() throws {
        let ledger = try open()
        #expect(try ledger.transactionDigest() == TransactionDigest())
        _ = try VaultLedgerAggregateTests.drive(ledger)
        #expect(try ledger.transactionDigest() == whole(ledger))
        #expect(try ledger.transactionDigest().count > 0)
        let ids = try ledger.transactions().map(\.transactionID)
        for id in ids.prefix(5) { #expect(try ledger.remove(transactionID: id)) }
        #expect(
            try ledger.record(try #require(try ledger.transactions().first)) == false, "already recorded: counted once")
        #expect(try open().transactionDigest() == whole(ledger))
        #expect(try open().transactionDigest().count == ids.count - 5)
        try ledger.saveAuditBaseline(TransactionDigest(count: 1, sum: 7))
        try ledger.removeAll()
        #expect(try open().transactionDigest() == TransactionDigest())
        #expect(try open().auditBaseline() == nil)
    }

    /// `history`'s table decodes only what it prints: the same rows, in the same order, as
    /// the whole transactions give.
    @Test func summariesAreTheWholeTransactionsRows() throws {
        let ledger = try open()
        _ = try VaultLedgerAggregateTests.drive(ledger)
        let whole = try ledger.transactions()
        #expect(whole.count > 100)
        #expect(try ledger.transactionSummaries() == whole.map(TransactionSummary.init))
        #expect(try FileLedger(path: dir.path("file.jsonl")).transactionSummaries().isEmpty)
    }

    @Test func aLedgerOfFormatTwoGetsItsDigestOnFirstUse() throws {
        let ledger = try open()
        _ = try VaultLedgerAggregateTests.drive(ledger)
        let expected = try whole(ledger)
        // As a build before the digest left it: format 2, no digest.
        try ledger.vault.delete(service: VaultLedger.ledgerService, account: VaultLedger.digestAccount)
        _ = try ledger.vault.upsert(
            service: VaultLedger.ledgerService, account: VaultLedger.formatAccount,
            VaultItemContent(data: Data("2".utf8)))
        let old = try open()
        #expect(try old.transactionDigest() == expected)
        #expect(
            try old.vault.get(service: VaultLedger.ledgerService, account: VaultLedger.formatAccount)?.data
                == Data("3".utf8))
        #expect(
            try old.entitlementTransactions().count == ledger.entitlementTransactions().count,
            "the aggregates were kept")
    }
}
