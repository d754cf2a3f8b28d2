import Catalog
import Foundation
import StoreCore
import Testing

@testable import LocalAppStore

/// When the store's renewal timer wakes: the desk's `nextWake`, on a journal state, at the
/// one-renewal-every-10-seconds rate (billing retry lasts 20 s, grace 10 s).
@Suite struct SubscriptionDeskWakeTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func theEarliestEndStillAheadWakesTheStore() throws {
        var settings = LocalStoreSettings()
        settings.timeRate = StoreTimeRate.oneRenewalEveryTenSeconds.rawValue
        let desk = SubscriptionDesk(
            catalog: try TestCatalog.load(), settings: settings, now: Self.now, currentStorefront: .unitedStates)
        var state = JournalState(settings: settings)
        /// Subscribes `account` for a period ending `end` seconds from now, changed by `change`.
        func subscribe(
            _ account: String, endingIn end: TimeInterval, _ change: (inout SubscriptionLifecycle) -> Void = { _ in }
        ) {
            var lifecycle = SubscriptionLifecycle(
                originalTransactionID: state.allocateTransactionID(), groupID: "G1", productID: TestCatalog.monthly,
                periodStart: Self.now.addingTimeInterval(end - 10), periodEnd: Self.now.addingTimeInterval(end),
                webOrderLineItemID: 1)
            change(&lifecycle)
            state.put(
                StoredSubscription(
                    accountID: account, lifecycle: lifecycle, latestTransactionID: lifecycle.originalTransactionID))
        }
        func failRenewal(secondsAgo: TimeInterval, grace: Bool) -> (inout SubscriptionLifecycle) -> Void {
            {
                _ = $0.failRenewal(
                    at: Self.now.addingTimeInterval(-secondsAgo), rate: desk.rate, gracePeriodEnabled: grace,
                    period: desk.period(of:))
            }
        }

        subscribe("active", endingIn: 50)
        subscribe("active", endingIn: 30)
        subscribe("expired", endingIn: 8) { _ = $0.expireNow(at: Self.now.addingTimeInterval(-5), intent: .cancelled) }
        subscribe("grace", endingIn: 3, failRenewal(secondsAgo: 5, grace: true))
        subscribe("grace-over", endingIn: 3, failRenewal(secondsAgo: 12, grace: true))
        subscribe("retry", endingIn: 3, failRenewal(secondsAgo: 4, grace: false))

        #expect(desk.nextWake(accountID: "nobody", state: state) == nil)
        #expect(desk.nextWake(accountID: "active", state: state) == Self.now.addingTimeInterval(30))
        #expect(desk.nextWake(accountID: "expired", state: state) == nil, "an ended subscription never wakes the store")
        #expect(
            desk.nextWake(accountID: "grace", state: state) == Self.now.addingTimeInterval(5),
            "the grace period ends first")
        #expect(
            desk.nextWake(accountID: "grace-over", state: state) == Self.now.addingTimeInterval(8),
            "then billing retry ends")
        #expect(desk.nextWake(accountID: "retry", state: state) == Self.now.addingTimeInterval(16))
    }
}
