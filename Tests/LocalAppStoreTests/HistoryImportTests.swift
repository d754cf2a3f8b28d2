import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// Importing a history (`LocalAppStore.importHistory`, `StoreJournal.importIntoHistory`): the
/// transactions go straight to `history.dat` in one compaction, no journal line each; the
/// snapshot keeps what they change (the ID counter, the non-consumables owned); an import
/// that cannot be written imports nothing.
@Suite(.timeLimit(.minutes(5))) struct HistoryImportTests {
    static func transaction(_ n: Int, _ product: String, _ type: ProductType) -> StoreCore.Transaction {
        StoreCore.Transaction(
            transactionID: "old-\(n)", productID: product, productType: type, payment: Payment(productID: product),
            state: .purchased, purchaseDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(n)),
            price: Decimal(string: "0.99"), currencyCode: "USD", storefront: "USA")
    }

    @Test func importedTransactionsGoStraightToTheHistoryAndKeepWhatTheyOwn() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        let imported = try await store.transactionManager.importHistory(
            [Self.transaction(0, TestCatalog.pro, .nonConsumable)]
                + (1...40).map { Self.transaction($0, TestCatalog.coins, .consumable) })
        #expect(imported.count == 41)

        let journal = try JournalHistoryTests.open(dir)
        let lines = try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n")
        #expect(!lines.contains { $0.contains(#""kind":"entry""#) }, "no journal line a transaction")
        #expect(journal.state.history?.count == 41)
        #expect(journal.state.orderedEntries.map(\.id) == imported.map(\.transactionID))
        #expect(journal.state.orderedEntries.allSatisfy { $0.finished && $0.charged })
        let owned = journal.state.ownedPurchase(accountID: StoreAccount.localTester.id, productID: TestCatalog.pro)
        #expect(owned?.id == imported[0].transactionID, "the imported non-consumable is owned")
        #expect(journal.state.nextTransactionID == UInt64(imported[40].transactionID)! + 1)

        // The next purchase takes the next ID, and the history lists the import before it.
        var events = EventReader(await store.events())
        let coins = try await buy(store, &events, TestCatalog.coins)
        #expect(UInt64(coins.transactionID) == UInt64(imported[40].transactionID)! + 1)
        #expect(
            try await store.transactionManager.history().map(\.transactionID) == imported.map(\.transactionID) + [
                coins.transactionID
            ])
    }

    @Test func anImportThatCannotBeWrittenImportsNothing() throws {
        let dir = try TemporaryDirectory()
        let made = try JournalHistoryTests.purchase(try JournalHistoryTests.open(dir), count: 3)
        let disk = FaultInjectingFileSystem()
        let failing = try JournalHistoryTests.open(dir, fileSystem: disk)
        disk.fail(.rename, with: .ioError)
        let attempt = { (journal: StoreJournal) throws(LocalAppStoreError) -> [QueueEntry] in
            try journal.importIntoHistory { state throws(LocalAppStoreError) in
                let entries = (0..<5).map { _ in JournalHistoryTests.entry(state.allocateTransactionID()) }
                return (entries, entries)
            }
        }
        #expect(throws: LocalAppStoreError.self) { _ = try attempt(failing) }
        #expect(failing.state.orderedEntries == made, "nothing imported in memory")
        #expect(try JournalHistoryTests.open(dir).state.orderedEntries == made, "nor on disk")

        let journal = try JournalHistoryTests.open(dir)
        let entries = try attempt(journal)
        #expect(try JournalHistoryTests.open(dir).state.orderedEntries == made + entries)
        #expect(throws: LocalAppStoreError.self) {
            _ = try journal.importIntoHistory { _ throws(LocalAppStoreError) in
                ([JournalHistoryTests.entry("2999999999999999", finished: false)], ())
            }
        }
    }
}
