import Foundation

/// A started child process whose exit is seen the moment the child is reaped: the one way the
/// bench waits for a child. Foundation's `Process.waitUntilExit` on Linux runs the run loop in
/// 50 ms steps until it notices the exit, so every child timed through it read up to 50 ms
/// long (`openssl version`: 51 ms instead of 3).
final class ChildExit {
    /// The child.
    let process: Process
    private let reaped = DispatchSemaphore(value: 0)

    /// Starts `process`, configured and not yet run.
    /// - Throws: what `Process.run()` throws when the child cannot be started.
    init(starting process: Process) throws {
        self.process = process
        let reaped = self.reaped
        process.terminationHandler = { _ in reaped.signal() }
        try process.run()
    }

    /// Waits until the child has exited.
    /// - Returns: its exit status.
    @discardableResult
    func wait() -> Int32 {
        reaped.wait()
        // The child is reaped: this returns at once, after Foundation's own bookkeeping.
        process.waitUntilExit()
        return process.terminationStatus
    }
}
