import Dispatch
import Foundation

extension ChildProcess {
    /// `run(...)` with the wait on a dispatch thread instead of the caller's: a test that waits
    /// on a child while an in-process server answers the child must not hold one of the two
    /// threads of Swift's cooperative pool the server's handlers need.
    /// - Throws: when the child cannot be started.
    public static func runDetached(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Duration = defaultTimeout
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Swift.Result<ChildProcess.Result, any Error> {
                        try run(
                            executable, arguments, environment: environment, currentDirectory: currentDirectory,
                            timeout: timeout)
                    })
            }
        }
    }
}
