import Foundation
import StoreCore
import StoreTesting
import StorefrontEffects
import StorefrontRuntime
import StorefrontUI
import SystemIO
import TestSupport
import Testing

/// How the storefront hears the store: the engine's events from the start, the downloads an
/// earlier process left, and a look at the shared store's revision each time its files change,
/// for what other processes did. The time limit only turns a watch that never wakes into a
/// failure instead of a hang.
@Suite(.timeLimit(.minutes(10))) struct StoreWatchTests {
    typealias F = Fixtures

    @Test func startUpCarriesOnWhatAnEarlierProcessLeftAndLoadsEverything() async {
        let left = F.download("4", F.forest, .waiting, written: 100)
        let downloads = FakeDownloads(FakeDownloads.Script(downloads: [left]))
        let setting = SettingRow(name: "ask-to-buy", label: "Ask to Buy", value: "off", choices: ["on", "off"])
        let fake = FakeStore(
            FakeStore.Script(
                context: F.context, products: F.products, settings: [setting], serverURL: "http://127.0.0.1:8080"),
            downloads: downloads)
        let store = TestStore(State(width: 100, height: 30), store: fake)
        await store.send(.started)
        #expect(
            store.effects == [
                .observeStore, .loadContext, .loadProducts, .loadPurchases, .loadSettings, .loadServer, .watchStore,
            ])
        // The download left waiting was resumed, and is reported as it is now: under way.
        #expect(downloads.calls == ["resume 4"])
        let carriedOn = F.download("4", F.forest, .active, written: 100)
        await store.receive(.storeEvent(.downloadUpdated(carriedOn))) {
            $0.downloads.items = [carriedOn]
            $0.animationInterval = 250
        }
        store.exhaustivity = .off
        await store.receive(.contextLoaded(.success(F.context))) { $0.context = F.context }
        await store.receive(.catalog(.productsLoaded(.success(F.products)))) { $0.catalog.products = F.products }
        store.exhaustivity = .on
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        await store.receive(.settings(.loaded(.success([setting])))) { $0.settings.rows = [setting] }
        await store.receive(.serverLoaded("http://127.0.0.1:8080")) { $0.serverURL = "http://127.0.0.1:8080" }
        // The watch's first look: the loads may predate what it pulled in.
        await store.receive(.storeChanged)
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        store.finish()
        #expect(
            fake.calls == [
                "context", "products", "history", "balances", "entitlements", "pending", "subscriptions", "settings",
                "serverURL", "synchronize", "revision", "history", "balances", "entitlements", "pending",
                "subscriptions",
            ])
    }

    @Test func theEnginesEventsArriveAsStoreEvents() async {
        let deferred = F.transaction("2", F.coins, .consumable, state: .deferred)
        let fake = FakeStore(FakeStore.Script(events: [.paymentDeferred(deferred)], pending: [deferred]))
        let store = TestStore(F.loaded(), store: fake)
        await store.fire(.observeStore)
        await store.receive(.storeEvent(.paymentDeferred(deferred))) {
            $0.eventLog.entries.append(LogEntry(time: F.start, text: "2 \(F.coins) ×1 deferred"))
        }
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot(pending: [deferred])))) {
            $0.purchases.pending = [deferred]
        }
        store.finish()
    }

    /// A look tells the reducer only when the shared store moved since the last one (and
    /// always the first time: the start-up loads may predate what it pulled in); there is one
    /// look at the start and one a change.
    @Test func aLookReportsAChangeOnlyWhenTheStoresRevisionMoved() async {
        let refunded = F.transaction("8", F.forest, .nonConsumable)
        let fake = FakeStore(FakeStore.Script(revisions: [3, 3, 4], changes: 2, history: [refunded]))
        let store = TestStore(F.loaded(), store: fake)
        await store.fire(.watchStore)
        #expect(fake.calls.filter { $0 == "synchronize" || $0 == "revision" }.count == 6)
        await store.receive(.storeChanged)
        #expect(store.effects == [.loadPurchases])
        let snapshot = PurchasesSnapshot(transactions: [refunded], orderIDs: ["8": "ORDER-8"])
        await store.receive(.storeChanged)
        await store.receive(.purchasesLoaded(.success(snapshot))) { $0.purchases = snapshot }
        await store.receive(.purchasesLoaded(.success(snapshot)))
        store.finish()
    }

    /// Another process appends to the store's file: the kernel's notification wakes the watch,
    /// which looks once. The runtime's clock never moves and nothing sleeps on it: there is
    /// no timer to wake the storefront, and it looks exactly once at the start and once for the
    /// change.
    @Test func aChangeAnotherProcessMakesWakesTheWatchWithNoTimer() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-storewatch")
        let journal = scratch.path("journal.jsonl")
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: journal))
        let neverLooks = SystemFileWatcher(fallback: PollingFileWatcher(sleep: ManualClock().sleep(for:)))
        let fake = FakeStore(FakeStore.Script(revisions: [1, 2])) {
            neverLooks.watch([WatchedEntries(scratch.path, named: ["journal.jsonl"])])
        }
        let clock = ManualClock()
        let (actions, sent) = AsyncStream.makeStream(of: Action.self)
        let runtime = EffectRuntime(handler: StorefrontEffects(store: fake), clock: clock) { sent.yield($0) }
        var received = actions.makeAsyncIterator()
        runtime.run(.watchStore)
        #expect(runtime.runningIDs == [.storeWatch])
        #expect(await received.next() == .storeChanged, "the first look")
        let appended = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '{}\\n' >> '\(journal)'"])
        #expect(appended.status == 0)
        #expect(await received.next() == .storeChanged, "the look the change woke")
        #expect(clock.sleeperCount == 0)
        #expect(fake.calls == ["synchronize", "revision", "synchronize", "revision"])
        runtime.run(.cancel(.storeWatch))
        await runtime.waitUntilIdle()
    }

    /// A window that shows the store follows it: with Store Settings open, a change another
    /// process made reloads the settings too.
    @Test func aChangeReloadsWhatTheOpenWindowShows() async {
        let setting = SettingRow(name: "latency", label: "Latency", value: "250", choices: ["0", "250"])
        let fake = FakeStore(FakeStore.Script(settings: [setting]))
        var state = F.loaded()
        state.modal = .settings
        state.settings.selected = 0
        let store = TestStore(state, store: fake)
        await store.fire(.watchStore)
        await store.receive(.storeChanged)
        #expect(store.effects == [.loadPurchases, .loadSettings])
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        await store.receive(.settings(.loaded(.success([setting])))) { $0.settings.rows = [setting] }
        store.finish()
    }
}
