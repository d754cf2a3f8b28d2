import Dispatch

/// Where request handlers run: a concurrent Dispatch queue of its own rather than Swift's
/// cooperative pool, whose few threads (one per core) other work in the process may hold
/// blocked; an answer never waits for them. Actors the handler calls (the store) run their
/// jobs here too, as the task's executor preference.
@available(macOS 15.0, *)
final class HandlerExecutor: TaskExecutor, Sendable {
    static let shared = HandlerExecutor()

    private let queue = DispatchQueue(label: "storefront.http.handlers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
