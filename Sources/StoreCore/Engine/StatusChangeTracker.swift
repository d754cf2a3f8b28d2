/// Which subscription statuses are news: the engine reports a group's status only when its
/// state differs from the one it reported last (the first status of a group is news).
///
/// A value with no side effects, so tests feed it statuses without an engine.
struct StatusChangeTracker {
    /// The state last reported per subscription group.
    private var reported: [String: SubscriptionStatus.State] = [:]

    /// The statuses among `statuses` whose state changed since last reported, in order; they
    /// count as reported from now on.
    mutating func changes(in statuses: [SubscriptionStatus]) -> [SubscriptionStatus] {
        var changed: [SubscriptionStatus] = []
        for status in statuses where reported[status.groupID] != status.state {
            reported[status.groupID] = status.state
            changed.append(status)
        }
        return changed
    }
}
