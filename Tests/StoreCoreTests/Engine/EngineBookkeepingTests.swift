import Foundation
import Testing

@testable import StoreCore

/// The engine's bookkeeping types, without an engine: which statuses are news, and the
/// `purchase` calls waiting for their outcome.
@Suite(.timeLimit(.minutes(10))) struct EngineBookkeepingTests {
    static func status(_ group: String, _ state: SubscriptionStatus.State) -> SubscriptionStatus {
        SubscriptionStatus(
            groupID: group, state: state,
            transaction: PurchaseRecord(
                productID: "\(group).monthly", productType: .autoRenewable, transactionID: "1",
                originalTransactionID: "1", purchaseDate: Date(timeIntervalSince1970: 0)),
            renewalInfo: nil)
    }

    @Test func aStatusIsNewsWhenItsGroupIsNewOrItsStateChanged() {
        var tracker = StatusChangeTracker()
        let first = tracker.changes(in: [Self.status("a", .subscribed), Self.status("b", .inGracePeriod)])
        #expect(first.map(\.groupID) == ["a", "b"], "every group is news the first time")
        #expect(tracker.changes(in: [Self.status("a", .subscribed), Self.status("b", .inGracePeriod)]).isEmpty)
        let later = tracker.changes(in: [
            Self.status("a", .expired), Self.status("b", .inGracePeriod), Self.status("c", .subscribed),
        ])
        #expect(later.map(\.groupID) == ["a", "c"])
        #expect(later.map(\.state) == [.expired, .subscribed])
        #expect(
            tracker.changes(in: [Self.status("a", .subscribed)]).map(\.state) == [.subscribed],
            "back to an earlier state is news")
    }

    @Test func aWaitingPurchaseIsResumedOnceWithTheFirstOutcome() async {
        var waiters = PurchaseWaiters()
        let result = await withCheckedContinuation { continuation in
            waiters.add("request", continuation)
            #expect(waiters.isWaiting(for: "request"))
            #expect(!waiters.isWaiting(for: "other"))
            waiters.resume("other", with: .cancelled(nil))  // nobody waits for it: nothing happens
            waiters.resume("request", with: .cancelled(nil))
            #expect(!waiters.isWaiting(for: "request"))
            waiters.resume("request", with: .failed(.paymentNotAllowed, nil))  // too late: ignored
        }
        #expect(result == .cancelled(nil))
    }
}
