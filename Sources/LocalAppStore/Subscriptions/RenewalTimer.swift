/// The subscription lifecycle's own state in one store instance (the store keeps it, for its
/// isolation): the task that wakes the store when the next period, grace or billing retry
/// ends. Setting a new one cancels the one before.
struct RenewalTimer {
    private var task: Task<Void, Never>?

    /// Replaces the wake-up with `task`, cancelling the one before.
    mutating func set(_ task: Task<Void, Never>) {
        self.task?.cancel()
        self.task = task
    }

    /// Cancels the wake-up, if any.
    mutating func cancel() {
        task?.cancel()
        task = nil
    }
}
