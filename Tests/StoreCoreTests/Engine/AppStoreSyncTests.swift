import Foundation
import Synchronization
import TestSupport
import Testing

@testable import StoreCore

/// StoreKit 2's `AppStore.sync()`, `Storefront.current`/`updates` and `Transaction.latest(for:)`
/// on the engine, over the in-memory backend.
@Suite(.timeLimit(.minutes(10)))
struct AppStoreSyncTests {
    let engine: QueueEngine
    var backend: QueueBackend { engine.backend }
    let store: Store

    init() throws {
        engine = try QueueEngine()
        store = try engine.store()
    }

    @Test func theLatestTransactionIsThePurchaseMadeLast() async throws {
        #expect(try await store.latestTransaction(for: "coins") == nil)
        let first = try #require(await store.purchase("coins").transaction)
        let second = try #require(await store.purchase("coins", quantity: 3).transaction)
        #expect(first.transactionID != second.transactionID)
        #expect(try await store.latestTransaction(for: "coins")?.transactionID == second.transactionID)
        #expect(try await store.latestTransaction(for: "pro") == nil)
    }

    @Test func syncStartsRestoresAndReports() async throws {
        _ = await store.purchase("pro")
        let events = store.events()
        let restored = try await store.sync()
        #expect(restored.map(\.productID) == ["pro"])
        #expect(restored.first?.state == .restored)
        // Reported as a restore, and the restored copy is the latest transaction now.
        var iterator = events.makeAsyncIterator()
        while let event = await iterator.next() {
            if case .restoreFinished(let ts) = event {
                #expect(ts == restored)
                break
            }
        }
        #expect(try await store.latestTransaction(for: "pro")?.transactionID == restored.first?.transactionID)
    }

    @Test func syncStartsAnEngineThatWasNotStarted() async throws {
        #expect(await !store.isStarted)
        _ = try await store.sync()
        #expect(await store.isStarted)
    }

    @Test func theStorefrontAndItsUpdatesReachEveryListener() async throws {
        #expect(await store.storefront() == nil)
        let japan = Storefront(code: "JPN", name: "Japan", currencyCode: "JPY", locale: "ja_JP", storefrontID: "143462")
        let observer = StorefrontObserver()
        store.addObserver(observer)
        let updates = store.storefrontUpdates()
        await store.start()
        await backend.move(to: japan)
        var iterator = updates.makeAsyncIterator()
        let moved = await iterator.next()
        #expect(moved == japan)
        #expect(moved?.countryCode == "JPN")
        #expect(moved?.id == "143462")
        #expect(await store.storefront() == japan)
        #expect(observer.seen == [japan])
        // Stopping the engine ends the stream.
        await store.stop()
        #expect(await iterator.next() == nil)
    }
}

/// Records the storefronts an observer is told of.
final class StorefrontObserver: StoreObserver {
    private let storefronts = Mutex<[Storefront]>([])
    var seen: [Storefront] { storefronts.withLock { $0 } }
    func storeStorefrontChanged(_ storefront: Storefront) { storefronts.withLock { $0.append(storefront) } }
}
