import Foundation
import TestSupport
import Testing

@testable import StoreCore

/// Removing from the ledger, RMStore's `removeTransactions` and a single removal, on both
/// ledgers: what was removed no longer counts as delivered, consumable units leave the
/// balance (never below zero), and a later purchase counts in full.
@Suite(.timeLimit(.minutes(10)))
struct LedgerRemovalTests {
    enum Kind: String, CaseIterable, Sendable { case file, vault }

    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func ledger(_ kind: Kind) throws -> any PurchaseLedger {
        switch kind {
        case .file: try FileLedger(path: dir.path("ledger.jsonl"))
        case .vault: try VaultLedger.open(inDataDirectory: dir.url.appendingPathComponent("data"), environment: [:])
        }
    }

    func coins(_ id: String, quantity: Int) -> Transaction {
        Transaction(
            transactionID: id, productID: "coins", productType: .consumable,
            payment: Payment(productID: "coins", quantity: quantity), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000))
    }

    func pro(_ id: String) -> Transaction {
        Transaction(
            transactionID: id, productID: "pro", productType: .nonConsumable, payment: Payment(productID: "pro"),
            state: .purchased, purchaseDate: Date(timeIntervalSince1970: 1_700_000_100))
    }

    @Test(arguments: Kind.allCases)
    func removingOneForgetsItAndItsUnitsNeverBelowZero(_ kind: Kind) throws {
        let ledger = try ledger(kind)
        #expect(try ledger.record(coins("1", quantity: 3)))
        #expect(try ledger.record(coins("2", quantity: 2)))
        #expect(try ledger.record(pro("3")))
        #expect(try ledger.consume(productID: "coins", quantity: 4) == 1)

        #expect(try ledger.remove(transactionID: "1"))
        #expect(try ledger.contains(transactionID: "1") == false)
        #expect(try ledger.balance(of: "coins") == 0, "1 left minus 3 removed is 0, not -2")
        #expect(try ledger.remove(transactionID: "1") == false, "already gone")
        #expect(try ledger.transactions().map(\.transactionID) == ["2", "3"])

        // Recorded again (the store delivered it again), and a new purchase counts in full.
        #expect(try ledger.record(coins("4", quantity: 5)))
        #expect(try ledger.balance(of: "coins") == 5)
        #expect(try ledger.remove(transactionID: "3"))
        #expect(try ledger.balance(of: "coins") == 5, "removing a non-consumable leaves balances alone")

        let reopened = try self.ledger(kind)
        #expect(try reopened.transactions().map(\.transactionID) == ["2", "4"])
        #expect(try reopened.balance(of: "coins") == 5)
    }

    @Test(arguments: Kind.allCases)
    func removingAllForgetsTransactionsAndBalancesButKeepsUnverifiedOrders(_ kind: Kind) throws {
        let ledger = try ledger(kind)
        _ = try ledger.record(coins("1", quantity: 3))
        _ = try ledger.record(pro("2"))
        _ = try ledger.consume(productID: "coins", quantity: 1)
        try ledger.saveUnverifiedOrder(
            UnverifiedOrder(transaction: pro("9"), receipt: nil, lastFailure: "offline", attempts: 1))

        try ledger.removeAll()
        #expect(try ledger.transactions().isEmpty)
        #expect(try ledger.balances().isEmpty)
        #expect(try ledger.unverifiedOrders().map(\.transaction.transactionID) == ["9"])
        _ = try ledger.record(coins("3", quantity: 2))
        #expect(try ledger.balance(of: "coins") == 2, "no consumption carried over")
        #expect(try self.ledger(kind).balance(of: "coins") == 2)
    }
}
