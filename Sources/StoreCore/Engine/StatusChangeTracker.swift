import Foundation

/// Which subscription statuses are news: the engine reports a subscription's status only when
/// its state differs from the one it reported last (the first status of a subscription is news;
/// a group has one more for each subscription a family member shares, `EntitlementCalculator`).
///
/// A value with no side effects, so tests feed it statuses without an engine.
struct StatusChangeTracker {
    /// The state last reported per subscription (`EntitlementCalculator.subscriptionKey`).
    private var reported: [String: SubscriptionStatus.State] = [:]
    /// The time of the latest report.
    private var reportedAt = Date.distantPast

    /// The time to report at when asked to report at `requested`: never earlier than the
    /// report before, so reported states never go back in time (a report asked when an event
    /// arrived may run after one asked later).
    mutating func reportTime(for requested: Date) -> Date {
        reportedAt = max(reportedAt, requested)
        return reportedAt
    }

    /// The statuses among `statuses` whose state changed since last reported, in order; they
    /// count as reported from now on.
    mutating func changes(in statuses: [SubscriptionStatus]) -> [SubscriptionStatus] {
        var changed: [SubscriptionStatus] = []
        for status in statuses {
            let key = EntitlementCalculator.subscriptionKey(of: status.transaction) ?? status.groupID
            guard reported[key] != status.state else { continue }
            reported[key] = status.state
            changed.append(status)
        }
        return changed
    }
}
