import AppStoreServer
import Foundation
import LocalAppStore
import Receipts
import StoreCore
import SystemIO
import TestSupport
import Testing

/// The sender hears other processes through the store's files, not a timer: on a clock that
/// never moves, an event another store instance journals (its own descriptors, its own lease,
/// no way to call `wake()`: to the sender it is another process) is delivered, and the sender
/// sleeps on nothing meanwhile. A poller would sleep on this clock and never look.
@Suite(.timeLimit(.minutes(10)))
struct NotificationSenderWakeTests {
    @Test func anEventAnotherInstanceJournalsWakesTheSenderWithNoTimer() async throws {
        let fixture = try await ServerFixture()
        let receiver = try NotificationDeliveryTests.Receiver(plan: [])
        try await fixture.store.settings.set(name: "notification-url", value: receiver.url)
        let log = NotificationDeliveryTests.AttemptLog()
        let sender = NotificationSender(
            store: fixture.store,
            configuration: .init(watcher: SystemFileWatcher(), log: { log.continuation.yield($0) }))
        await sender.start()
        var lines = log.lines.makeAsyncIterator()

        let other = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: try ServerFixture.catalog(), stateDirectory: fixture.store.configuration.stateDirectory,
                clock: fixture.clock, initialLatencyMilliseconds: 0))
        var events = await other.events().makeAsyncIterator()
        let queued = try await other.add(Payment(productID: ServerFixture.coins))
        while let event = await events.next() {
            if case .transactionsUpdated(let updated) = event,
                updated.contains(where: { $0.transactionID == queued.transactionID && $0.state == .purchased })
            {
                break
            }
        }

        let line = try #require(await lines.next())
        #expect(line.hasSuffix("ONE_TIME_CHARGE SUCCESS"), "\(line)")
        let body = try JSONDecoder().decode(ResponseBodyV2.self, from: try #require(receiver.bodies.first))
        let payload = try ServerFixture.payload(try #require(body.signedPayload))
        let data = try #require(payload["data"] as? [String: Any])
        let transaction = try ServerFixture.payload(try #require(data["signedTransactionInfo"] as? String))
        #expect(transaction["transactionId"] as? String == queued.transactionID)
        // Nothing is due and nothing sleeps on the store clock: only a change can wake it.
        #expect(fixture.clock.sleeperCount == 0)
        // One pass at the start, then at most one a journal write (coalesced): never one of its own.
        let passes = await sender.passes
        let writes = fixture.store.metrics.appends + other.metrics.appends
        #expect(passes >= 2 && passes <= 1 + writes, "\(passes) passes for \(writes) writes")

        await sender.stop()
        await receiver.stop()
        await fixture.close()
    }
}
