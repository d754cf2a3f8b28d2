import Foundation
import TestSupport
import Testing

@testable import StoreCore

/// `Store.auditLedger()` compares digests first (issue 13): a whole ledger is told without
/// reading either history, any difference in what the two sides hold is compared in full,
/// and a difference a full audit found harmless (a lost purchase given back by a restore)
/// is not compared again until it changes.
@Suite(.timeLimit(.minutes(10)))
struct LedgerAuditTests {
    let dir: TemporaryDirectory
    let backend = QueueBackend()
    init() throws { dir = try TemporaryDirectory() }

    func ledger() throws -> VaultLedger {
        try VaultLedger.open(inDataDirectory: dir.url.appendingPathComponent("data"), environment: [:])
    }

    func engine(_ ledger: any PurchaseLedger) async -> Store {
        await backend.setListsFinished(true)
        return Store(
            backend: backend, ledger: ledger,
            configuration: StoreConfiguration(notificationCenter: NotificationCenter()))
    }

    func bought(_ store: Store, _ product: String) async throws -> Transaction {
        try #require(await store.purchase(product).transaction)
    }

    @Test func aWholeLedgerIsToldByTheDigestsAlone() async throws {
        let store = await engine(try ledger())
        await store.start()
        _ = try await bought(store, "pro")
        _ = try await bought(store, "coins")
        #expect(try await store.auditLedger()?.isComplete == true)
        #expect(await backend.finishedListReads == 0, "equal digests: neither list is read")
    }

    @Test func aLedgerLackingATransactionIsComparedInFull() async throws {
        let vault = try ledger()
        let store = await engine(vault)
        await store.start()
        _ = try await bought(store, "pro")
        let coins = try await bought(store, "coins")
        #expect(try vault.remove(transactionID: coins.transactionID))
        let audit = try #require(try await store.auditLedger())
        #expect(audit.missing.map(\.transactionID) == [coins.transactionID])
        #expect(await backend.finishedListReads == 1, "the counts differ: the lists are compared")
        // Still missing next time (nothing harmless was remembered), from another process too.
        let again = try #require(try await Store(backend: backend, ledger: try ledger()).auditLedger())
        #expect(again.lostUnits == ["coins": 1])
        #expect(await backend.finishedListReads == 2)
    }

    @Test func aHarmlessDifferenceIsComparedOnceUntilItChanges() async throws {
        let vault = try ledger()
        let store = await engine(vault)
        await store.start()
        let pro = try await bought(store, "pro")
        #expect(try vault.remove(transactionID: pro.transactionID))
        let lost = try #require(try await store.auditLedger())
        #expect(lost.restorable.map(\.transactionID) == [pro.transactionID])
        let restored = try await store.recoverLostPurchases(lost)
        #expect(restored.map(\.originalTransactionID) == [pro.transactionID])

        // The store lists the purchase and its restored copy, the ledger the copy: held.
        #expect(try await store.auditLedger()?.isComplete == true)
        #expect(await backend.finishedListReads == 2)
        #expect(try vault.auditBaseline() == TransactionDigest(ids: [pro.transactionID]))
        #expect(try await store.auditLedger()?.isComplete == true)
        _ = try await bought(store, "coins")
        #expect(try await Store(backend: backend, ledger: try ledger()).auditLedger()?.isComplete == true)
        #expect(await backend.finishedListReads == 2, "the same difference: no full read")

        // A change of the difference is compared in full again, and found.
        let coins = try await bought(store, "coins")
        #expect(try vault.remove(transactionID: coins.transactionID))
        #expect(try await store.auditLedger()?.missing.map(\.transactionID) == [coins.transactionID])
        #expect(await backend.finishedListReads == 3)
    }
}
