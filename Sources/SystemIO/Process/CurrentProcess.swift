#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the package asks of processes: its own identity, signals for fault points and
/// crash tests, the file-creation mask, and whether a stream is a terminal.
public enum CurrentProcess {
    /// A signal the package sends.
    public enum Signal: Sendable {
        /// `SIGKILL`: ends the process at once; nothing runs after it (a crash, for tests).
        case kill
        /// `SIGTERM`: asks the process to end.
        case terminate
        /// `SIGINT`: as Ctrl-C.
        case interrupt

        var number: Int32 {
            switch self {
            case .kill: SIGKILL
            case .terminate: SIGTERM
            case .interrupt: SIGINT
            }
        }
    }

    /// A standard stream of this process.
    public enum StandardStream: Int32, Sendable {
        /// Standard input (descriptor 0).
        case input = 0
        /// Standard output (descriptor 1).
        case output = 1
        /// Standard error (descriptor 2).
        case error = 2
    }

    /// This process's id (`getpid`).
    public static var identifier: Int32 { getpid() }

    /// The effective user id (`geteuid`).
    public static var effectiveUserID: UInt32 { UInt32(geteuid()) }

    /// Ends this process with `SIGKILL` at once, as a crash or a power cut would end it: no
    /// handler, no buffered output, no clean-up runs. Fault points call this.
    public static func killImmediately() -> Never {
        _ = kill(getpid(), SIGKILL)
        // SIGKILL cannot be caught; this only runs if the kernel refused to deliver it.
        abort()
    }

    /// Sends `signal` to the process `pid`.
    /// - Throws: `SystemCallError` (`ESRCH` when there is no such process).
    public static func send(_ signal: Signal, to pid: Int32) throws(SystemCallError) {
        _ = try Syscall.retrying("kill", path: "") { kill(pid, signal.number) }
    }

    /// Sets the file-creation mask (`umask`) of the whole process.
    /// - Returns: the mask before.
    @discardableResult
    public static func setFileCreationMask(_ mask: UInt32) -> UInt32 {
        UInt32(umask(mode_t(mask)))
    }

    /// Whether `stream` is a terminal (`isatty`).
    public static func isTerminal(_ stream: StandardStream) -> Bool {
        isatty(stream.rawValue) == 1
    }
}
