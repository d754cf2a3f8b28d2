/// The payment queue's own state in one store instance (the store keeps it, for its
/// isolation): which of its purchases wait for their latency, and which it could not decline
/// on disk. Neither is journaled: a purchase left `.purchasing` by an instance that is gone is
/// adopted by the next (`PaymentQueue.adoptAbandoned`).
struct SettlementSchedule {
    /// This instance's `.purchasing` transactions whose settling is scheduled (waiting for latency).
    var scheduled: Set<String> = []
    /// This instance's purchases it declined without being able to journal the decline (see
    /// `PaymentQueue.decline(_:because:in:)`): it never settles them itself; the next start does.
    var declinedUnwritten: Set<String> = []

    /// Whether this instance is settling `id` already, or leaves it to the next start.
    func isSettling(_ id: String) -> Bool {
        scheduled.contains(id) || declinedUnwritten.contains(id)
    }
}
