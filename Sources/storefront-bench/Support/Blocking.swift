import Dispatch

/// Runs async work from the benchmark's synchronous sections.
enum Blocking {
    typealias Failure = BenchFailure

    private final class Box<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    /// Waits for `work` on the cooperative pool and returns its result.
    static func await<T>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        guard let result = box.result else { throw Failure(description: "no result") }
        return try result.get()
    }
}
