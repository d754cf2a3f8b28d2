import Catalog
import Foundation
import StoreCore
import StoreTesting
import Synchronization
import TestSupport
import Testing

@testable import LocalAppStore

extension TemporaryDirectory {
    /// The store's state directory when the temporary directory is the data directory.
    var stateDirectory: URL { LocalAppStoreConfiguration.stateDirectory(inDataDirectory: url) }
    /// The store's journal in `stateDirectory`.
    var journal: URL { stateDirectory.appendingPathComponent("journal.jsonl") }
}

/// The catalog the tests sell from: one product of each kind, three locales.
enum TestCatalog {
    static let coins = "com.test.coins.100"
    static let pro = "com.test.pro"
    static let monthly = "com.test.plus.monthly"
    static let season = "com.test.season.pass"
    static let missing = "com.test.missing"

    static func json(settings: String = #""_locale" : "en_US", "_storefront" : "USA""#) -> String {
        """
        {
          "identifier" : "TEST",
          "nonRenewingSubscriptions" : [
            { "displayPrice" : "4.99", "familyShareable" : false, "internalID" : "4",
              "localizations" : [ { "description" : "All levels for one season", "displayName" : "Season Pass", "locale" : "en_US" } ],
              "productID" : "\(season)", "referenceName" : "season", "type" : "NonRenewingSubscription" }
          ],
          "products" : [
            { "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "1",
              "localizations" : [
                { "description" : "A pile of coins", "displayName" : "100 Coins", "locale" : "en_US" },
                { "description" : "コインの山", "displayName" : "コイン100枚", "locale" : "ja_JP" },
                { "description" : "Ein Haufen Münzen", "displayName" : "100 Münzen", "locale" : "de_DE" } ],
              "productID" : "\(coins)", "referenceName" : "coins", "type" : "Consumable" },
            { "displayPrice" : "9.99", "familyShareable" : true, "internalID" : "2",
              "localizations" : [ { "description" : "Everything, forever", "displayName" : "Pro", "locale" : "en_US" } ],
              "productID" : "\(pro)", "referenceName" : "pro", "type" : "NonConsumable" }
          ],
          "settings" : { \(settings) },
          "subscriptionGroups" : [
            { "id" : "G1", "localizations" : [ { "displayName" : "Plus", "locale" : "en_US" } ], "name" : "plus",
              "subscriptions" : [
                { "adHocOffers" : [ { "internalID" : "O1", "offerID" : "winback", "paymentMode" : "payAsYouGo",
                                      "displayPrice" : "1.99", "numberOfPeriods" : 2,
                                      "referenceName" : "winback", "subscriptionPeriod" : "P1M" } ],
                  "codeOffers" : [], "displayPrice" : "2.99", "familyShareable" : false, "groupNumber" : 1,
                  "internalID" : "3",
                  "introductoryOffer" : { "internalID" : "I1", "paymentMode" : "free", "subscriptionPeriod" : "P1W" },
                  "localizations" : [ { "description" : "More of everything", "displayName" : "Plus Monthly", "locale" : "en_US" } ],
                  "productID" : "\(monthly)", "recurringSubscriptionPeriod" : "P1M", "referenceName" : "monthly",
                  "subscriptionGroupID" : "G1", "type" : "RecurringSubscription" } ] }
          ],
          "version" : { "major" : 3, "minor" : 0 }
        }
        """
    }

    static func load(settings: String = #""_locale" : "en_US", "_storefront" : "USA""#) throws -> StoreKitConfiguration
    {
        try StoreKitConfiguration.decode(data: Data(json(settings: settings).utf8), file: "Test.storekit")
    }
}

/// Records the fault points a store reaches.
final class FaultRecorder: Sendable {
    private let points = Mutex<[FaultPoint]>([])
    var recorded: [FaultPoint] { points.withLock { $0 } }
    func record(_ point: FaultPoint) { points.withLock { $0.append(point) } }
}

/// Makes a store on `directory` with zero latency and a manual clock.
func makeStore(
    _ directory: TemporaryDirectory, catalog: StoreKitConfiguration? = nil, clock: ManualClock = ManualClock(),
    latency: Int = 0, account: StoreAccount = .localTester, faultHook: @escaping FaultHook = { _ in }
) throws -> LocalAppStore {
    try LocalAppStore(
        configuration: LocalAppStoreConfiguration(
            catalog: catalog ?? TestCatalog.load(), stateDirectory: directory.stateDirectory, account: account,
            clock: clock, initialLatencyMilliseconds: latency
        ).injecting(faults: faultHook))
}

/// Reads a store's event stream one event at a time.
struct EventReader {
    private var iterator: AsyncStream<BackendEvent>.Iterator

    init(_ stream: AsyncStream<BackendEvent>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next event (the suite's time limit stops a test whose event never comes).
    mutating func next() async -> BackendEvent? {
        await iterator.next()
    }

    /// The transactions of the next `.transactionsUpdated` event, skipping other events.
    mutating func nextUpdate() async -> [StoreCore.Transaction] {
        while let event = await iterator.next() {
            if case .transactionsUpdated(let transactions) = event { return transactions }
        }
        return []
    }

    /// The next `.transactionsUpdated` event's transaction, expected to be `transactionID` alone,
    /// in `state` (a mismatch is recorded at the caller).
    mutating func nextDecision(
        of transactionID: String, _ state: TransactionState, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> StoreCore.Transaction? {
        let update = await nextUpdate()
        #expect(update.map(\.transactionID) == [transactionID], sourceLocation: sourceLocation)
        #expect(update.first?.state == state, sourceLocation: sourceLocation)
        return update.first
    }

    /// The transaction IDs of the next `.transactionsRemoved` event, skipping other events.
    mutating func nextRemoval() async -> [String] {
        while let event = await iterator.next() {
            if case .transactionsRemoved(let ids) = event { return ids }
        }
        return []
    }
}

/// Buys `productID` and waits for its decided state on `reader`.
func buy(
    _ store: LocalAppStore, _ reader: inout EventReader, _ productID: String, quantity: Int = 1,
    applicationUsername: String? = nil, orderData: [String: String] = [:]
) async throws -> StoreCore.Transaction {
    let queued = try await store.add(
        Payment(
            productID: productID, quantity: quantity, applicationUsername: applicationUsername, orderData: orderData))
    #expect(queued.state == .purchasing)
    while true {
        let update = await reader.nextUpdate()
        if let decided = update.first(where: { $0.transactionID == queued.transactionID }) { return decided }
        if update.isEmpty { throw StoreError.unknown("the event stream ended") }
    }
}

/// The engine started over a fresh local store in `directory` with a file ledger beside it,
/// both on `clock`: what an app on this store is.
func launchEngine(
    _ directory: TemporaryDirectory, catalog: StoreKitConfiguration, clock: ManualClock
) async throws -> (LocalAppStore, Store) {
    let backend = try makeStore(directory, catalog: catalog, clock: clock)
    let store = try makeEngine(backend, in: directory, clock: clock)
    await store.start()
    return (backend, store)
}

/// The engine (not started) over `backend`, its file ledger `ledger` in `directory`, with its
/// own notification center, on `clock`.
func makeEngine(
    _ backend: LocalAppStore, in directory: TemporaryDirectory, clock: ManualClock, ledger: String = "ledger.jsonl",
    verifier: any PurchaseVerifier = AcceptingVerifier()
) throws -> Store {
    Store(
        backend: backend, ledger: try FileLedger(path: directory.path(ledger)),
        configuration: StoreConfiguration(verifier: verifier, notificationCenter: NotificationCenter(), clock: clock))
}

/// What the engine suites over local stores share: a fresh directory and a manual clock;
/// `store(latency:)` opens a local store on them, `engine(_:)` the engine over one.
struct EngineRig {
    let directory: TemporaryDirectory
    let clock = ManualClock()

    init() throws { directory = try TemporaryDirectory() }

    /// A local store on the directory (`makeStore`), on the clock.
    func store(latency: Int = 0) throws -> LocalAppStore {
        try makeStore(directory, clock: clock, latency: latency)
    }

    /// The engine over `backend`, its ledger the directory's `ledger` file (`makeEngine`).
    func engine(
        _ backend: LocalAppStore, ledger: String = "ledger.jsonl", verifier: any PurchaseVerifier = AcceptingVerifier()
    ) throws -> Store {
        try makeEngine(backend, in: directory, clock: clock, ledger: ledger, verifier: verifier)
    }
}

/// A store on a fresh `EngineRig` with `settings` set, and a reader of its events from then on:
/// what the purchase suites start from.
struct Shop {
    let rig: EngineRig
    let store: LocalAppStore
    var events: EventReader

    init(latency: Int = 0, settings: [(name: String, value: String)] = []) async throws {
        rig = try EngineRig()
        store = try rig.store(latency: latency)
        for (name, value) in settings { try await store.settings.set(name: name, value: value) }
        events = EventReader(await store.events())
    }

    /// Buys `productID` and waits for its decided state (`buy(_:_:_:)`).
    mutating func buy(_ productID: String, orderData: [String: String] = [:]) async throws -> StoreCore.Transaction {
        try await LocalAppStoreTests.buy(store, &events, productID, orderData: orderData)
    }
}

/// What the engine suites over the Demo catalog share: a fresh directory, a manual clock and
/// the catalog; `launch()` starts a store and the engine over them (`launchEngine`).
struct DemoEngine {
    let directory: TemporaryDirectory
    let clock = ManualClock()
    let catalog: StoreKitConfiguration

    init() throws {
        directory = try TemporaryDirectory()
        catalog = try StoreKitConfiguration.load(contentsOf: DemoCatalog.url)
    }

    /// A store on the directory and the engine over it, started.
    func launch() async throws -> (LocalAppStore, Store) {
        try await launchEngine(directory, catalog: catalog, clock: clock)
    }
}
