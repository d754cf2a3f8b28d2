import Catalog
import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// The store shared with real `storefront` processes on one data directory, one of them
/// killed with SIGKILL.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10))) struct ChildProcessTests {

    /// The repository's bundled catalog, which the child processes sell from too.

    static func start(_ arguments: [String], dataDirectory: URL, fault: String? = nil) throws -> ChildProcess {
        // Standard error kept for the failure message: what the child said when it ended early.
        try ChildProcess(
            BuiltProduct.storefront, ["--data-dir", dataDirectory.path, "--catalog", DemoCatalog.url.path] + arguments,
            environment: fault.map { ["STOREFRONT_FAULT": $0] } ?? [:], standardOutput: .discard,
            standardError: .file(dataDirectory.appendingPathComponent("child-\(UUID().uuidString).log")))
    }

    /// Everything the children wrote to standard error in `dataDirectory`.
    static func childLogs(_ dataDirectory: URL) -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)) ?? []
        return names.filter { $0.hasPrefix("child-") }.compactMap {
            try? String(contentsOf: dataDirectory.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
    }

    static func makeDemoStore(_ dir: TemporaryDirectory) throws -> LocalAppStore {
        try makeStore(dir, catalog: try StoreKitConfiguration.load(contentsOf: DemoCatalog.url))
    }

    @Test func aPurchaseLeftPurchasingByAKilledProcessIsChargedOnceHere() async throws {
        let dir = try TemporaryDirectory()
        let store = try Self.makeDemoStore(dir)
        // The child kills itself (SIGKILL) after queuing the payment durably, before charging it.
        let child = try Self.start(["buy", DemoCatalog.coins], dataDirectory: dir.url, fault: "before-charge")
        try #require(child.wait().signaled, "the child was to die at before-charge: \(Self.childLogs(dir.url))")
        let queued = try await store.transactionManager.history()
        #expect(queued.map(\.state) == [.purchasing])
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: dir.stateDirectory.appendingPathComponent("owners").path
            ).count == 2)  // the child's and ours

        var events = EventReader(await store.events())
        let adopted = await events.nextUpdate()
        #expect(adopted.map(\.transactionID) == queued.map(\.transactionID))
        #expect(adopted.first?.state == .purchased)
        #expect(try await store.transactionManager.charges().map(\.transactionID) == queued.map(\.transactionID))

        // The next process sees it charged once and queued for delivery, and delivers it.
        let next = try Self.start(["history"], dataDirectory: dir.url)
        #expect(next.wait().status == 0)
        #expect(try await store.transactionManager.charges().count == 1)
        #expect(try await store.unfinishedTransactions().isEmpty)
    }

    // A missing announcement leaves the stream waiting: a minute fails it.
    @Test(.timeLimit(.minutes(10))) func aPurchaseRecordedByAProcessKilledBeforeFinishingIsAnnouncedHereOnce()
        async throws
    {
        let dir = try TemporaryDirectory()
        // The child records the purchase in the vault and dies (SIGKILL) before announcing it.
        let child = try Self.start(["buy", DemoCatalog.coins], dataDirectory: dir.url, fault: "before-finish")
        try #require(child.wait().signaled, "the child was to die at before-finish: \(Self.childLogs(dir.url))")
        let backend = try Self.makeDemoStore(dir)
        let ledger = try VaultLedger.open(inDataDirectory: dir.url, environment: [:])
        let recorded = try ledger.transactions().map(\.transactionID)
        #expect(recorded.count == 1)
        #expect(try await backend.unfinishedTransactions().map(\.transactionID) == recorded)

        // The app's next start, as `storefront` opens it: announced once, counted once, finished.
        let store = Store(
            backend: backend, ledger: ledger,
            configuration: StoreConfiguration(notificationCenter: NotificationCenter()))
        var updates = store.transactionUpdates().makeAsyncIterator()
        var events = store.events().makeAsyncIterator()
        await store.start()
        #expect(await updates.next()?.transactionID == recorded.first)
        let event = await events.next()
        #expect(event?.notificationName == .storePaymentTransactionFinished && event?.transactionID == recorded.first)
        #expect(try ledger.balance(of: DemoCatalog.coins) == 1)
        #expect(try await backend.unfinishedTransactions().isEmpty)
    }

    @Test func purchasesFromTwoProcessesAndThisOneAtOnceAreAllKept() async throws {
        let dir = try TemporaryDirectory()
        let store = try Self.makeDemoStore(dir)
        var events = EventReader(await store.events())
        let children = try (0..<2).map { _ in try Self.start(["buy", DemoCatalog.coins], dataDirectory: dir.url) }
        var mine: [String] = []
        for _ in 0..<5 {
            let bought = try await buy(store, &events, DemoCatalog.coins)
            mine.append(bought.transactionID)
            do {
                try await store.finish(transactionID: bought.transactionID)
            } catch {
                // A child's engine saw this purchase on its stream, delivered it to the shared
                // ledger and finished it first: the same outcome.
                #expect(error == StoreError.unknownTransaction(bought.transactionID))
            }
        }
        for child in children {
            #expect(child.wait().status == 0, "\(Self.childLogs(dir.url))")
        }
        let charges = try await store.transactionManager.charges()
        #expect(charges.count == 7)
        #expect(Set(charges.map(\.transactionID)).count == 7)
        #expect(Set(mine).isSubset(of: Set(charges.map(\.transactionID))))
    }
}
