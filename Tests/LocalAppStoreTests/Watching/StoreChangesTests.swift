import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// What wakes a process that watches the shared store: another instance's journal write (to the
/// watcher, another process: its own descriptors, its own lease), and an instance that ends
/// with a purchase it owned, which the watcher then adopts. The clock never moves: only the
/// kernel's notification wakes the stream. The time limit only turns a stream that never wakes
/// into a failure instead of a hang.
@Suite(.timeLimit(.minutes(10))) struct StoreChangesTests {
    /// The kernel's notification alone: a fallback whose clock never moves never looks.
    static let watcher = SystemFileWatcher(fallback: PollingFileWatcher(sleep: ManualClock().sleep(for:)))

    @Test func anotherInstancesChangeWakesTheStream() async throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let watching = try makeStore(dir, clock: clock)
        var changes = StoreChanges(configuration: watching.configuration, watcher: Self.watcher).stream()
            .makeAsyncIterator()
        let other = try makeStore(dir, clock: clock)
        try await other.settings.set(name: "ask-to-buy", value: "on")
        #expect(await changes.next() != nil)
        await watching.synchronize()
        #expect(try await watching.settings.current().askToBuy)
    }

    /// An instance that owned a purchase still being decided ends (its lease file closed, as
    /// the kernel closes a killed process's): the stream wakes, and the watcher adopts the
    /// purchase and charges it.
    @Test func anOwnerThatEndsWakesTheStreamAndItsPurchaseIsAdopted() async throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        // The first instance makes the store, and with it the latency every instance uses.
        let watching = try makeStore(dir, clock: clock, latency: 1000)
        var dying: LocalAppStore? = try makeStore(dir, clock: clock)
        let queued = try #require(try await dying?.add(Payment(productID: TestCatalog.coins)))
        await clock.waitForSleepers()
        // Watching starts after the purchase's write, so only the end can wake it.
        var changes = StoreChanges(configuration: watching.configuration, watcher: Self.watcher).stream()
            .makeAsyncIterator()
        await watching.synchronize()
        #expect(try await watching.transactionManager.charges().isEmpty, "its owner lives: nobody else settles it")
        dying = nil
        #expect(await changes.next() != nil)
        await watching.synchronize()
        #expect(try await watching.transactionManager.charges().map(\.transactionID) == [queued.transactionID])
    }
}
