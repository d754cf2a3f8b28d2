import Dispatch
import Testing

/// Runs each test of a suite that blocks on child processes (`waitpid`, pipe reads, tmux) on a
/// dispatch queue of its own instead of Swift's cooperative pool.
///
/// The pool has as many threads as cores — two here — and every suite of the test process
/// shares it. Two tests blocked on slow children under load held both threads for minutes,
/// and unrelated in-memory tests failed their time limits without having run. A serial queue
/// runs on a thread dispatch adds when others block, so a waiting test holds only its own.
public struct WaitsOnProcesses: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(QueueExecutor(label: "storefront.tests.\(test.name)")) {
            try await function()
        }
    }
}

extension Trait where Self == WaitsOnProcesses {
    /// The suite's tests block on child processes: they run off the cooperative pool.
    public static var waitsOnProcesses: Self { WaitsOnProcesses() }
}

/// A task executor that runs its jobs, in order, on one serial dispatch queue.
final class QueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
