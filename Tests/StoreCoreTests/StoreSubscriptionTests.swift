import Foundation
import StoreTesting
import Synchronization
import TestSupport
import Testing

@testable import StoreCore

/// The engine's side of subscriptions: renewals, revocations and status changes reach the
/// app through observers and the update stream, and entitlements follow.
@Suite(.timeLimit(.minutes(10)))
struct StoreSubscriptionTests {
    let dir: TemporaryDirectory
    let backend = QueueBackend()
    let clock = ManualClock()
    let month = SubscriptionPeriod(value: 1, unit: .month)

    init() throws { dir = try TemporaryDirectory() }

    /// The engine's notifications, private to this test.
    let center = NotificationCenter()

    func launch() async throws -> Store {
        let store = Store(
            backend: backend, ledger: try FileLedger(path: dir.path("ledger.jsonl")),
            configuration: StoreConfiguration(notificationCenter: center, clock: clock))
        await store.start()
        return store
    }

    func period(_ id: String, start: Date, revoked: Date? = nil) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: "500", productID: "plus.monthly", productType: .autoRenewable,
            payment: Payment(productID: "plus.monthly"), state: .purchased, purchaseDate: start,
            expiresDate: month.advance(start), revocationDate: revoked, revocationReason: revoked == nil ? nil : 0,
            subscriptionGroupID: "pass")
    }

    @Test func renewalsAreDeliveredThenARefundRevokesEverywhere() async throws {
        let store = try await launch()
        let observer = RecordingObserver()
        store.addObserver(observer)
        let posted = Mutex<[String]>([])
        let tokens = [Notification.Name.storeTransactionRevoked, .storeSubscriptionStatusChanged].map { name in
            center.addObserver(forName: name, object: nil, queue: nil) { note in
                let what =
                    note.storeSubscriptionStatus.map { "status:\($0.state.rawValue)" }
                    ?? note.storeTransaction.map { "revoked:\($0.transactionID)" } ?? "?"
                posted.withLock { $0.append(what) }
            }
        }
        defer { tokens.forEach(center.removeObserver) }
        var updates = store.transactionUpdates().makeAsyncIterator()
        var events = store.events().makeAsyncIterator()

        let first = period("500", start: clock.now)
        await backend.inject(first)
        #expect(await updates.next()?.transactionID == "500")
        let renewal = period("501", start: month.advance(clock.now))
        clock.advance(by: 30 * 86_400)  // still inside the first period: no expiry in between
        await backend.inject(renewal)
        #expect(await updates.next()?.transactionID == "501")
        #expect(try await store.currentEntitlements().map(\.transactionID) == ["501"])

        let refundDate = clock.now.addingTimeInterval(3600)
        clock.advance(by: 7200)
        await backend.inject(period("501", start: renewal.purchaseDate, revoked: refundDate))
        let revoked = await updates.next()
        #expect(revoked?.transactionID == "501")
        #expect(revoked?.revocationDate == refundDate)
        #expect(try await store.currentEntitlements().isEmpty)
        #expect(try await store.subscriptionStatuses().first?.state == .revoked)

        var states: [SubscriptionStatus.State] = []
        var sawRevoked = false
        while states.last != .revoked, let event = await events.next() {
            if case .subscriptionStatusChanged(let status) = event { states.append(status.state) }
            if case .transactionRevoked(let t) = event, t.transactionID == "501" { sawRevoked = true }
        }
        #expect(states == [.subscribed, .revoked])
        #expect(sawRevoked)
        // Observers and notifications heard the same, before the stream.
        #expect(
            observer.log.filter { $0.hasPrefix("revoked") || $0.hasPrefix("status") }
                == ["status:pass:subscribed", "revoked:501", "status:pass:revoked"])
        #expect(posted.withLock { $0 } == ["status:subscribed", "revoked:501", "status:revoked"])
        #expect(
            observer.log.contains("finished:500") && observer.log.contains("finished:501"), "renewals reach observers")
        #expect(try await store.history().count == 2, "a refund updates the record; it adds none")
    }

    @Test func expiryIsReportedWhenTheClockPassesIt() async throws {
        let store = try await launch()
        var events = store.events().makeAsyncIterator()
        var updates = store.transactionUpdates().makeAsyncIterator()
        await backend.inject(period("500", start: clock.now))
        #expect(await updates.next()?.transactionID == "500")
        clock.advance(by: 40 * 86_400)
        await store.synchronize()
        var states: [SubscriptionStatus.State] = []
        while states.last != .expired, let event = await events.next() {
            if case .subscriptionStatusChanged(let status) = event { states.append(status.state) }
        }
        #expect(states == [.subscribed, .expired])
        let start = clock.now.addingTimeInterval(-40 * 86_400)
        let verdict = try await store.verifySubscriptions(.autoRenewable, productIDs: ["plus.monthly"])
        #expect(
            verdict == .expired(expiresDate: month.advance(start), items: [PurchaseRecord(period("500", start: start))])
        )
    }
}
