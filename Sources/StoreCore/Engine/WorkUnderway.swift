/// What the engine is doing right now that others must wait for: the pipeline of a
/// transaction, and the backend event in hand.
///
/// A pipeline suspends (the ledger's calls run off the engine's actor), so a second path may
/// meet a transaction being handled: a newer version on the event stream, or `sync()`
/// delivering what the stream delivers too. It waits for the running pipeline to end and then
/// handles its own version, which the ledger recognises, rather than dropping the change or
/// returning before the transaction is recorded. `Store.synchronize()` waits likewise for the
/// event in hand, so that what the backend announced with a purchase is recorded when it returns.
struct WorkUnderway {
    /// A piece of work others may wait for.
    enum Work: Hashable {
        /// The pipeline of the transaction with this ID.
        case pipeline(String)
        /// The backend event the engine's listener is handling.
        case backendEvent
    }

    private var running: Set<Work> = []
    private var waiting: [Work: [CheckedContinuation<Void, Never>]] = [:]

    /// Whether `work` runs now.
    func isRunning(_ work: Work) -> Bool { running.contains(work) }

    /// Marks `work` as running from now on.
    mutating func begin(_ work: Work) {
        running.insert(work)
    }

    /// Resumes `continuation` when `work` ends.
    mutating func wait(for work: Work, _ continuation: CheckedContinuation<Void, Never>) {
        waiting[work, default: []].append(continuation)
    }

    /// Marks `work` as ended and resumes those waiting for it.
    mutating func end(_ work: Work) {
        running.remove(work)
        for continuation in waiting.removeValue(forKey: work) ?? [] { continuation.resume() }
    }
}
