import Foundation
import StoreTesting
import TestSupport
import Testing

@testable import StoreCore

/// The purchase ledger in the encrypted vault: the `PurchaseLedger` contract, persistence,
/// and the engine running on it.
@Suite(.timeLimit(.minutes(10)))
struct VaultLedgerTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func open(_ environment: [String: String] = [:]) throws -> VaultLedger {
        try VaultLedger.open(inDataDirectory: dir.url.appendingPathComponent("data"), environment: environment)
    }

    func coins(_ id: String, quantity: Int = 1, username: String? = nil) -> Transaction {
        Transaction(
            transactionID: id, productID: "coins", productType: .consumable,
            payment: Payment(productID: "coins", quantity: quantity, applicationUsername: username), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000))
    }

    func pro(_ id: String) -> Transaction {
        Transaction(
            transactionID: id, productID: "pro", productType: .nonConsumable,
            payment: Payment(productID: "pro"), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1_700_000_100))
    }

    @Test func recordIsIdempotentAndEverythingSurvivesAReopen() throws {
        let ledger = try open()
        let original = coins("1", quantity: 5, username: "player-7")
        #expect(try ledger.record(original))
        #expect(try ledger.record(coins("1", quantity: 5)) == false)
        #expect(try ledger.record(pro("2")))
        #expect(try ledger.contains(transactionID: "2"))
        #expect(try ledger.contains(transactionID: "3") == false)
        #expect(try ledger.balance(of: "coins") == 5)

        let reopened = try open()
        #expect(try reopened.transactions().map(\.transactionID) == ["1", "2"])
        let first = try #require(try reopened.transaction(withID: "1"))
        #expect(first == original)
        #expect(first.payment.applicationUsername == "player-7")
        #expect(try reopened.balances() == ["coins": 5])
    }

    @Test func consumeRefusesMoreThanTheBalanceAndPersists() throws {
        let ledger = try open()
        _ = try ledger.record(coins("1", quantity: 2))
        #expect(try ledger.consume(productID: "coins", quantity: 1) == 1)
        #expect(throws: LedgerError.insufficientBalance(productID: "coins", balance: 1, requested: 2)) {
            try ledger.consume(productID: "coins", quantity: 2)
        }
        #expect(throws: LedgerError.insufficientBalance(productID: "gems", balance: 0, requested: 1)) {
            try ledger.consume(productID: "gems", quantity: 1)
        }
        #expect(try open().balance(of: "coins") == 1)
        #expect(try ledger.consume(productID: "coins", quantity: 1) == 0)
        #expect(try open().balances().isEmpty)
    }

    @Test func updateReplacesWithoutRecountingAndIgnoresUnknownIDs() throws {
        let ledger = try open()
        _ = try ledger.record(coins("1", quantity: 3))
        var revoked = coins("1", quantity: 3)
        revoked.revocationDate = Date(timeIntervalSince1970: 1_700_000_500)
        try ledger.update(revoked)
        try ledger.update(coins("unknown"))
        #expect(try open().transaction(withID: "1")?.revocationDate == revoked.revocationDate)
        #expect(try ledger.contains(transactionID: "unknown") == false)
        #expect(try ledger.balance(of: "coins") == 3, "as FileLedger: a later revocation does not change the count")
    }

    /// Reads decode only what changed, yet never return a stale transaction: not after an
    /// update here, nor after one made through another ledger on the same file (another process).
    @Test func readsFollowEveryChangeHereAndFromAnotherLedger() throws {
        let ledger = try open()
        #expect(try ledger.record(pro("1")))
        #expect(try ledger.record(coins("2")))
        #expect(try ledger.transactions().map(\.revocationDate) == [nil, nil])
        var refunded = pro("1")
        refunded.revocationDate = Date(timeIntervalSince1970: 1_700_000_500)
        try ledger.update(refunded)
        #expect(try ledger.transactions().first?.revocationDate == refunded.revocationDate)

        let other = try open()
        var later = coins("2")
        later.revocationDate = Date(timeIntervalSince1970: 1_700_000_600)
        try other.update(later)
        #expect(try other.record(pro("3")))
        let seen = try ledger.transactions()
        #expect(seen.map(\.transactionID) == ["1", "2", "3"])
        #expect(seen.map(\.revocationDate) == [refunded.revocationDate, later.revocationDate, nil])
    }

    @Test func unverifiedOrdersAreKeptUntilRemoved() throws {
        let ledger = try open()
        let order = UnverifiedOrder(
            transaction: coins("9"), receipt: Data([1, 2, 3]), lastFailure: "server 503", attempts: 1)
        try ledger.saveUnverifiedOrder(order)
        var again = order
        again.attempts = 2
        try ledger.saveUnverifiedOrder(again)
        try ledger.saveUnverifiedOrder(
            UnverifiedOrder(transaction: pro("10"), receipt: nil, lastFailure: "offline", attempts: 1))
        #expect(try open().unverifiedOrders().map(\.transaction.transactionID) == ["9", "10"])
        #expect(try open().unverifiedOrders().first == again)
        try ledger.removeUnverifiedOrder(transactionID: "9")
        try ledger.removeUnverifiedOrder(transactionID: "not there")
        #expect(try open().unverifiedOrders().map(\.transaction.transactionID) == ["10"])
    }

    @Test func recordingOrderHoldsEvenWithinOneClockTick() throws {
        // A clock that never moves: the order must come from the ledger, not from time.
        let ledger = VaultLedger(
            vault: try open().vault, clock: ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000)))
        for id in ["b", "a", "c", "10", "9"] { _ = try ledger.record(coins(id)) }
        #expect(try ledger.transactions().map(\.transactionID) == ["b", "a", "c", "10", "9"])
        for id in ["9", "10", "1"] {
            try ledger.saveUnverifiedOrder(
                UnverifiedOrder(transaction: coins(id), receipt: nil, lastFailure: "x", attempts: 1))
        }
        try ledger.saveUnverifiedOrder(
            UnverifiedOrder(transaction: coins("9"), receipt: nil, lastFailure: "y", attempts: 2))
        #expect(try ledger.unverifiedOrders().map(\.transaction.transactionID) == ["9", "10", "1"])
    }

    @Test func theFileIsEncryptedAndUnlockedByPassphraseOrKeyFile() throws {
        let ledger = try open()
        _ = try ledger.record(coins("txn-visible?", username: "player-7"))
        let bytes = try Data(contentsOf: dir.url.appendingPathComponent("data/vault.sfv"))
        for clear in ["coins", "txn-visible?", "player-7", "storefront.transactions"] {
            #expect(bytes.range(of: Data(clear.utf8)) == nil, "\(clear) in the clear")
        }
        #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("data/vault.key").path))

        let other = try TemporaryDirectory()
        let withPassphrase = try VaultLedger.open(
            inDataDirectory: other.url.appendingPathComponent("data"),
            environment: ["STOREFRONT_PASSPHRASE": "correct horse"])
        _ = try withPassphrase.record(pro("p1"))
        #expect(!FileManager.default.fileExists(atPath: other.url.appendingPathComponent("data/vault.key").path))
        #expect(throws: LedgerError.self) {
            _ = try VaultLedger.open(
                inDataDirectory: other.url.appendingPathComponent("data"),
                environment: ["STOREFRONT_PASSPHRASE": "wrong"])
        }
        let reopened = try VaultLedger.open(
            inDataDirectory: other.url.appendingPathComponent("data"),
            environment: ["STOREFRONT_PASSPHRASE": "correct horse"])
        #expect(try reopened.contains(transactionID: "p1"))
    }

    @Test func theEngineRunsOnTheVaultLedger() async throws {
        let backend = QueueBackend()
        let store = Store(backend: backend, ledger: try open(), configuration: StoreConfiguration())
        await store.start()
        let bought = await store.purchase("coins", quantity: 3, orderData: ["order": "o-1"])
        let t = try #require(bought.transaction)
        _ = await store.purchase("pro")
        #expect(try await store.count(of: "coins") == 3)
        #expect(try await store.consume("coins") == 2)
        #expect(try await store.isPurchased("pro"))
        #expect(try await store.purchasedProductIDs() == ["coins", "pro"])
        #expect(await backend.finished.contains(t.transactionID))
        await store.stop()
        // A new engine on the same vault sees the same purchases.
        let again = Store(backend: QueueBackend(), ledger: try open(), configuration: StoreConfiguration())
        #expect(try await again.count(of: "coins") == 2)
        #expect(try await again.history().map(\.transactionID).contains(t.transactionID))
    }
}
