import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

@Suite(.timeLimit(.minutes(10))) struct PersistenceTests {
    @Test func unfinishedTransactionsComeBackToTheNextInstanceWithTheirOrderData() async throws {
        let dir = try TemporaryDirectory()
        var purchasedID = ""
        var deferredID = ""
        do {
            let store = try makeStore(dir)
            var events = EventReader(await store.events())
            purchasedID = try await buy(store, &events, TestCatalog.coins, quantity: 2, orderData: ["order": "7"])
                .transactionID
            try await store.settings.set(name: "ask-to-buy", value: "on")
            let deferred = try await buy(store, &events, TestCatalog.pro, applicationUsername: "hashed-user")
            #expect(deferred.state == .deferred)
            deferredID = deferred.transactionID
            let finished = try await buy(store, &events, TestCatalog.season)
            try await store.finish(transactionID: finished.transactionID)
            // The process dies here: nothing finished the first two.
        }
        let next = try makeStore(dir)
        var events = EventReader(await next.events())
        let redelivered = await events.nextUpdate()
        #expect(redelivered.map(\.transactionID) == [purchasedID, deferredID])
        #expect(redelivered.map(\.state) == [.purchased, .deferred])
        #expect(redelivered.first?.payment.orderData == ["order": "7"])
        #expect(redelivered.first?.quantity == 2)
        #expect(redelivered.last?.payment.applicationUsername == "hashed-user")
        #expect(try await next.transactionManager.history().count == 3)
    }

    @Test func aPurchaseLeftPurchasingByADeadInstanceIsChargedOnceByTheNext() async throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        var store: LocalAppStore? = try makeStore(dir, clock: clock, latency: 1000)
        let queued = try #require(try await store?.add(Payment(productID: TestCatalog.coins, orderData: ["n": "1"])))
        await clock.waitForSleepers()
        let leases = dir.stateDirectory.appendingPathComponent("owners").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: leases).count == 1)
        store = nil  // dies while the purchase waits for its latency
        #expect(try FileManager.default.contentsOfDirectory(atPath: leases).isEmpty)

        let next = try makeStore(dir, clock: clock)
        var events = EventReader(await next.events())
        let adopted = await events.nextUpdate()
        #expect(adopted.map(\.transactionID) == [queued.transactionID])
        #expect(adopted.first?.state == .purchased)
        #expect(adopted.first?.payment.orderData == ["n": "1"])
        clock.advance(by: 1)  // the dead instance's timer fires and must do nothing
        await next.synchronize()
        #expect(try await next.transactionManager.charges().map(\.transactionID) == [queued.transactionID])
    }

    @Test func leasesOfGoneInstancesAreSweptAndLiveOnesKept() async throws {
        let dir = try TemporaryDirectory()
        let owners = dir.stateDirectory.appendingPathComponent("owners")
        let living = try makeStore(dir)
        // A process killed by SIGKILL leaves its lease file behind, unlocked.
        try FileManager.default.createDirectory(at: owners, withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(atPath: owners.appendingPathComponent("DEAD-TOKEN.lock").path, contents: nil)
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: owners.path).count == 2)
        let next = try makeStore(dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: owners.path)
        #expect(names.count == 2)
        #expect(!names.contains("DEAD-TOKEN.lock"))
        _ = (living, next)
    }

    @Test func aLivingInstancesPurchaseIsNotAdoptedByAnother() async throws {
        var owner = try await Shop(latency: 1000)
        let clock = owner.rig.clock
        let queued = try await owner.store.add(Payment(productID: TestCatalog.coins))
        await clock.waitForSleepers()
        let other = try owner.rig.store()
        _ = await other.events()
        await other.synchronize()
        #expect(try await other.transactionManager.history().map(\.state) == [.purchasing])
        clock.advance(by: 1)
        #expect(await owner.events.nextUpdate().map(\.transactionID) == [queued.transactionID])
        #expect(try await other.transactionManager.charges().count == 1)
    }

    @Test func aTornLastLineIsIgnoredAndCutOffByTheNextWriter() async throws {
        let dir = try TemporaryDirectory()
        var firstID = ""
        do {
            let store = try makeStore(dir)
            var events = EventReader(await store.events())
            firstID = try await buy(store, &events, TestCatalog.coins).transactionID
        }
        let handle = try FileHandle(forWritingTo: dir.journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"kind":"entry","entry":{"transaction":{"transactionID":"99"#.utf8))
        try handle.close()

        let store = try makeStore(dir)
        #expect(try await store.transactionManager.history().map(\.transactionID) == [firstID])
        var events = EventReader(await store.events())
        _ = await events.nextUpdate()  // the redelivered first purchase
        let second = try await buy(store, &events, TestCatalog.coins)
        #expect(UInt64(second.transactionID) == UInt64(firstID).map { $0 + 1 })
        let text = try String(contentsOf: dir.journal, encoding: .utf8)
        #expect(!text.contains(#""transactionID":"99"#))
        #expect(text.hasSuffix("\n"))
        #expect(try await makeStore(dir).transactionManager.history().count == 2)
    }

    @Test func aDamagedLineInTheMiddleIsAClearErrorNamingTheFileAndLine() async throws {
        let dir = try TemporaryDirectory()
        do {
            let store = try makeStore(dir)
            var events = EventReader(await store.events())
            _ = try await buy(store, &events, TestCatalog.coins)
        }
        var lines = try String(contentsOf: dir.journal, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        lines[2] = "this is not json"
        try lines.joined(separator: "\n").write(to: dir.journal, atomically: true, encoding: .utf8)
        #expect(throws: LocalAppStoreError.self) { try makeStore(dir) }
        do {
            _ = try makeStore(dir)
        } catch let error as LocalAppStoreError {
            guard case .corrupt(let path, let line, _) = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
            #expect(path == dir.journal.path)
            #expect(line == 3)
            #expect(error.description.contains("journal.jsonl:3"))
        }
    }

    @Test func aJournalFromANewerVersionIsRefused() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.stateDirectory, withIntermediateDirectories: true)
        try Data(#"{"kind":"header","format":"storefront-local-store-journal","version":99}"#.utf8 + [10])
            .write(to: dir.journal)
        #expect {
            try makeStore(dir)
        } throws: { error in
            (error as? LocalAppStoreError)?.description.contains("newer than this build reads") == true
        }
    }

    @Test func theStateDirectoryIsPrivate() throws {
        let dir = try TemporaryDirectory()
        _ = try makeStore(dir)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.stateDirectory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func compactionKeepsEveryTransactionAndTheIDCounter() throws {
        let dir = try TemporaryDirectory()
        let path = dir.stateDirectory.path
        let metrics = StoreMetrics()
        let journal = try StoreJournal(
            directory: path, initialSettings: LocalStoreSettings(), metrics: metrics, compactionSlack: 8)
        var lastID = ""
        for n in 0..<40 {
            _ = try journal.transact { state throws(LocalAppStoreError) in
                let id = state.allocateTransactionID()
                lastID = id
                let payment = Payment(productID: TestCatalog.coins, orderData: ["n": String(n)])
                var entry = QueueEntry(
                    transaction: Transaction(
                        transactionID: id, productID: TestCatalog.coins, productType: .consumable, payment: payment,
                        state: .purchasing, purchaseDate: Date(timeIntervalSince1970: 0)),
                    accountID: "a", charged: false, finished: false, pending: nil, owner: nil)
                let queued = JournalRecord.make(entry)
                entry.transaction.state = .purchased
                entry.charged = true
                let charged = JournalRecord.make(entry)
                entry.finished = true
                return ([queued, charged, JournalRecord.make(entry)], ())
            }
        }
        #expect(metrics.compactions >= 1)
        let lines = try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n").count
        #expect(lines < 3 * 40)
        let reopened = try StoreJournal(directory: path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics())
        #expect(reopened.state.orderedEntries.count == 40)
        #expect(reopened.state.orderedEntries.allSatisfy { $0.finished && $0.charged })
        #expect(reopened.state.orderedEntries.last?.transaction.payment.orderData == ["n": "39"])
        #expect(reopened.state.nextTransactionID == UInt64(lastID).map { $0 + 1 })
    }

    @Test func anInstanceReadsOnAfterAnotherCompacted() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.stateDirectory.path
        let reader = try StoreJournal(directory: path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics())
        let writer = try StoreJournal(
            directory: path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(), compactionSlack: 4)
        var seen = Set<String>()
        for _ in 0..<30 {
            _ = try writer.transact { state throws(LocalAppStoreError) in
                let id = state.allocateTransactionID()
                let entry = QueueEntry(
                    transaction: Transaction(
                        transactionID: id, productID: TestCatalog.coins, productType: .consumable,
                        payment: Payment(productID: TestCatalog.coins), state: .purchased,
                        purchaseDate: Date(timeIntervalSince1970: 0)),
                    accountID: "a", charged: true, finished: false, pending: nil, owner: nil)
                return ([JournalRecord.make(entry), JournalRecord.make(entry), JournalRecord.make(entry)], ())
            }
            for entry in try reader.refresh() { seen.insert(entry.id) }
        }
        #expect(seen.count == 30)
        #expect(reader.state.orderedEntries.map(\.id) == writer.state.orderedEntries.map(\.id))
    }
}

@Suite(.timeLimit(.minutes(10))) struct DurabilityTests {
    @Test func aStoreThatDoesNotSyncStillKeepsEverythingAcrossInstances() async throws {
        let dir = try TemporaryDirectory()
        let configuration = LocalAppStoreConfiguration(
            catalog: try TestCatalog.load(), stateDirectory: dir.stateDirectory, clock: ManualClock(),
            initialLatencyMilliseconds: 0
        ).syncing(false)
        var ids: [String] = []
        do {
            let store = try LocalAppStore(configuration: configuration)
            var events = EventReader(await store.events())
            for _ in 0..<3 { ids.append(try await buy(store, &events, TestCatalog.coins).transactionID) }
            #expect(store.metrics.fsyncs == 0)
            #expect(store.metrics.appends == 6)
        }
        let store = try LocalAppStore(configuration: configuration)
        #expect(try await store.unfinishedTransactions().map(\.transactionID) == ids)
    }
}

@Suite(.timeLimit(.minutes(10))) struct BadStateTests {
    @Test func aStateDirectoryThatCannotBeMadeIsAnIOErrorNamingThePath() throws {
        let dir = try TemporaryDirectory()
        // The data directory is a regular file: nothing can be created inside it.
        let file = dir.url.appendingPathComponent("not-a-directory")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
        let configuration = LocalAppStoreConfiguration(
            catalog: try TestCatalog.load(), stateDirectory: file.appendingPathComponent("store"), clock: ManualClock(),
            initialLatencyMilliseconds: 0)
        #expect {
            try LocalAppStore(configuration: configuration)
        } throws: { error in
            guard case .io(let path, let reason)? = error as? LocalAppStoreError else { return false }
            return path.hasPrefix(file.path) && reason.contains("mkdir")
        }
    }

    @Test func aJournalWithoutItsHeaderIsRefused() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.stateDirectory, withIntermediateDirectories: true)
        try Data(#"{"kind":"settings","settings":{}}"#.utf8 + [10]).write(to: dir.journal)
        #expect(
            throws: LocalAppStoreError.corrupt(
                path: dir.journal.path, line: 1, reason: "the first line is not a storefront-local-store-journal header"
            )
        ) {
            try makeStore(dir)
        }
    }

    @Test func aJournalRemovedUnderTheStoreIsAClearError() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try FileManager.default.removeItem(at: dir.journal)
        await #expect(throws: LocalAppStoreError.self) { try await store.transactionManager.history() }
        let error = await #expect(throws: StoreError.self, "a purchase was accepted without a journal") {
            _ = try await store.add(Payment(productID: TestCatalog.coins))
        }
        guard case .systemError(let why)? = error else {
            Issue.record("expected .systemError, got \(String(describing: error))")
            return
        }
        #expect(why.contains("journal.jsonl"))
    }
}

@Suite(.timeLimit(.minutes(10))) struct EmptyJournalTests {
    @Test func anEmptiedJournalStartsAnewAndStaysReadable() async throws {
        let dir = try TemporaryDirectory()
        _ = try makeStore(dir)
        try Data().write(to: dir.journal)
        let store = try makeStore(dir)
        var events = EventReader(await store.events())
        let bought = try await buy(store, &events, TestCatalog.coins)
        #expect(try await makeStore(dir).transactionManager.history().map(\.transactionID) == [bought.transactionID])
        let firstLine = try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n").first ?? ""
        #expect(firstLine.contains(#""kind":"header""#))
    }
}

@Suite(.timeLimit(.minutes(10))) struct FailedWriteTests {
    @Test func aChargeTheJournalCannotTakeIsDeclinedAndSettledOnlyByTheNextStart() async throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        var store: LocalAppStore? = try makeStore(dir, clock: clock, latency: 500)
        var events = EventReader(try #require(await store?.events()))
        let queued = try #require(try await store?.add(Payment(productID: TestCatalog.coins)))
        await clock.waitForSleepers()
        // The journal is away when the charge is written: the write fails, and so does the decline.
        let aside = dir.stateDirectory.appendingPathComponent("journal.aside")
        try FileManager.default.moveItem(at: dir.journal, to: aside)
        #expect(await store?.settlements.scheduled.count == 1)
        clock.advance(by: 0.5)
        // The buyer hears at once (a caller would otherwise wait for ever), with the file named.
        let declined = await events.nextDecision(of: queued.transactionID, .failed)
        let reason = declined?.error?.description ?? ""
        #expect(reason.contains(dir.journal.path) && reason.contains("settled again at the next start"), "\(reason)")
        try FileManager.default.moveItem(at: aside, to: dir.journal)
        #expect(try await store?.transactionManager.history().map(\.state) == [.purchasing])
        // This instance, which told its buyer no, never charges it itself.
        await store?.synchronize()
        #expect(try await store?.transactionManager.charges().isEmpty == true)
        store = nil

        // The next start finds it `.purchasing` with its owner gone, as after a kill, and settles it.
        let next = try makeStore(dir, clock: clock)
        var nextEvents = EventReader(await next.events())
        _ = await nextEvents.nextDecision(of: queued.transactionID, .purchased)
        #expect(try await next.transactionManager.charges().count == 1)
    }

    @Test func aChargeWhoseWriteFailedOnceIsDeclinedInTheJournal() async throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let disk = FaultInjectingFileSystem()
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: TestCatalog.load(), stateDirectory: dir.stateDirectory, clock: clock,
                initialLatencyMilliseconds: 500
            ).keeping(through: disk))
        var events = EventReader(await store.events())
        let queued = try await store.add(Payment(productID: TestCatalog.coins))
        await clock.waitForSleepers()
        disk.fail(.write, onCall: 1, with: .noSpace)
        clock.advance(by: 0.5)
        let declined = await events.nextUpdate()
        #expect(declined.first?.state == .failed)
        #expect(declined.first?.error?.description.contains("\(dir.journal.path): write failed") == true)
        // Written: every later start sees the same decline, and nothing was charged.
        let next = try makeStore(dir, clock: clock)
        await next.synchronize()
        #expect(
            try await next.transactionManager.history().first { $0.transactionID == queued.transactionID }?.state
                == .failed)
        #expect(try await next.transactionManager.charges().isEmpty)
    }
}
