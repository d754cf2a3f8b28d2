import Foundation
import SystemIO

/// A real child process a test started: the built `storefront` or `vault-torture`
/// (`BuiltProduct`), or a tool such as `python3` or `openssl` (`.tool("openssl")`).
///
/// Captured output is read as it arrives, on a thread of its own per stream, so a chatty child
/// never blocks on a full pipe. Every wait is bounded without sleeping: the end of the child
/// comes from a thread blocked in `waitpid` and output from the readers, both through
/// condition variables with a deadline. A child still running at the deadline is killed with
/// SIGKILL and its result says `timedOut`, so a hung child fails its test instead of hanging
/// the suite. The bound is a guard, never an assertion about time.
///
/// Children start through `ChildSpawn` (`posix_spawn`), not Foundation's `Process`, whose
/// `run()` crashes now and then on Linux; a thread of its own per child waits for its end.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's output streams goes.
    public enum Output: Sendable {
        /// Into a pipe this value reads; the text is in the `Result`.
        case capture
        /// To `/dev/null`.
        case discard
        /// Appended to the file at this URL (created if missing).
        case file(URL)
        /// For standard error: wherever standard output goes, interleaved as written (for
        /// standard output itself, the same as `capture`).
        case standardOutput
    }

    /// How a child ended and what it wrote.
    public struct Result: Sendable {
        /// The exit status, or the signal number when `signaled`.
        public let status: Int32
        /// Whether a signal ended the child (`status` is then the signal number).
        public let signaled: Bool
        /// What the child wrote to standard output (empty unless captured).
        public let stdout: String
        /// What the child wrote to standard error (empty unless captured apart).
        public let stderr: String
        /// Whether the wait's bound passed and this value killed the child.
        public let timedOut: Bool

        /// Standard output, then standard error: everything captured.
        public var output: String { stdout + stderr }
    }

    /// How long `wait` and `run` give a child before they kill it: generous, because the
    /// machine may be busy; it only turns a hang into a failure.
    public static let defaultTimeout: Duration = .seconds(300)

    private let pid: Int32
    private let stdoutReader: StreamReader?
    private let stderrReader: StreamReader?
    private let exit = Exit()
    /// The writing end of a tied child's standard input: held until `closeStandardInput` or
    /// this value goes, written only by `send`.
    private let lifeline: FileHandle?

    /// Starts `executable` with `arguments`, without waiting for it.
    /// - Parameters:
    ///   - environment: variables set on top of this process's environment.
    ///   - unsetting: variables removed from the inherited environment (before `environment` applies).
    ///   - currentDirectory: the child's working directory; nil inherits this process's.
    ///   - standardOutput: where standard output goes (captured by default).
    ///   - standardError: where standard error goes (captured by default).
    ///   - tiedToThisProcess: give the child a pipe as standard input whose writing end only
    ///     this process holds, so the child reads end-of-file when this process dies (a server
    ///     that watches its input ends with a killed test run) or calls `closeStandardInput`,
    ///     and reads what `send` writes; otherwise `/dev/null`.
    /// - Throws: when the child cannot be started (a missing executable, a file that cannot be opened).
    public init(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String] = [:], unsetting: [String] = [],
        currentDirectory: URL? = nil, standardOutput: Output = .capture, standardError: Output = .capture,
        tiedToThisProcess: Bool = false
    ) throws {
        var env = ProcessInfo.processInfo.environment
        for name in unsetting { env[name] = nil }
        for (name, value) in environment { env[name] = value }

        // Every descriptor opened here is the parent's; each is closed once the child has its copy.
        var parentsCopies: [Int32] = []
        defer { for descriptor in parentsCopies { close(descriptor) } }
        var input = ChildSpawn.Stream.null
        var lifeline: FileHandle?
        if tiedToThisProcess {
            let pipe = try ChildSpawn.pipe()
            parentsCopies.append(pipe.read)
            input = .descriptor(pipe.read)
            lifeline = FileHandle(fileDescriptor: pipe.write, closeOnDealloc: true)
        }
        let out = try Self.destination(standardOutput, sharing: nil, parentsCopies: &parentsCopies)
        let err = try Self.destination(standardError, sharing: out.stream, parentsCopies: &parentsCopies)
        pid = try ChildSpawn.start(
            executable.path, arguments: arguments, environment: env, currentDirectory: currentDirectory?.path,
            standardInput: input, standardOutput: out.stream, standardError: err.stream)
        self.lifeline = lifeline
        stdoutReader = out.reader.map(StreamReader.init)
        stderrReader = err.reader.map(StreamReader.init)
        let (pid, exit) = (pid, exit)
        Thread.detachNewThread { exit.signal(ChildSpawn.wait(for: pid)) }
    }

    /// Runs `executable` to its end (or the bound) and returns how it ended and what it wrote.
    /// - Throws: when the child cannot be started.
    public static func run(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String] = [:], unsetting: [String] = [],
        currentDirectory: URL? = nil, standardOutput: Output = .capture, standardError: Output = .capture,
        timeout: Duration = defaultTimeout
    ) throws -> Result {
        try ChildProcess(
            executable, arguments, environment: environment, unsetting: unsetting, currentDirectory: currentDirectory,
            standardOutput: standardOutput, standardError: standardError
        ).wait(timeout: timeout)
    }

    /// The child's process ID.
    public var processIdentifier: Int32 { pid }

    /// Writes `text` to a tied child's standard input (see `tiedToThisProcess`).
    /// - Throws: when the child is not tied or has closed its input.
    public func send(_ text: String) throws {
        guard let lifeline else {
            throw SystemCallError("write", path: "standard input", errno: Errno(rawValue: EBADF))
        }
        try lifeline.write(contentsOf: Data(text.utf8))
    }

    /// Closes a tied child's standard input: it reads end-of-file.
    public func closeStandardInput() {
        try? lifeline?.close()
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { !exit.hasEnded }

    /// Sends SIGKILL (nothing happens once the child has been waited for).
    public func kill() {
        guard !exit.hasEnded else { return }
        sendSIGKILL(pid)
    }

    /// Waits until the standard output captured so far satisfies `condition`, which is asked
    /// again each time more arrives.
    /// - Returns: that output, or nil when standard output ended (or the bound passed) first,
    ///   or is not captured.
    public func waitForStandardOutput(timeout: Duration = defaultTimeout, until condition: (String) -> Bool) -> String?
    {
        stdoutReader?.wait(until: Self.deadline(after: timeout)) { condition(String(decoding: $0, as: UTF8.self)) }
    }

    /// Waits for the child to end and for its captured output to close, killing it with
    /// SIGKILL if it has not ended when `timeout` passes.
    ///
    /// Calling it again returns the same result.
    public func wait(timeout: Duration = defaultTimeout) -> Result {
        let deadline = Self.deadline(after: timeout)
        var timedOut = false
        if !exit.wait(until: deadline) {
            timedOut = true
            sendSIGKILL(pid)
            exit.waitForever()  // SIGKILL cannot be caught: the end is on its way
        }
        // Output closes when the child and whatever it started have let go of the pipes.
        let out = stdoutReader?.waitForEnd(until: deadline) ?? Data()
        let err = stderrReader?.waitForEnd(until: deadline) ?? Data()
        let (status, signaled) =
            switch exit.termination {
            case .exited(let status): (status, false)
            case .signaled(let signal): (signal, true)
            }
        return exit.result(
            Result(
                status: status, signaled: signaled,
                stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
                timedOut: timedOut))
    }

    private static func deadline(after timeout: Duration) -> Date {
        let (seconds, attoseconds) = timeout.components
        return Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// What `output` becomes for the child, and the descriptor to read when it is captured.
    /// `sharing` is standard output's stream when this is standard error's.
    private static func destination(
        _ output: Output, sharing: ChildSpawn.Stream?, parentsCopies: inout [Int32]
    ) throws -> (stream: ChildSpawn.Stream, reader: Int32?) {
        switch output {
        case .standardOutput where sharing != nil:
            return (sharing ?? .null, nil)
        case .capture, .standardOutput:
            let pipe = try ChildSpawn.pipe()
            parentsCopies.append(pipe.write)
            return (.descriptor(pipe.write), pipe.read)
        case .discard:
            return (.null, nil)
        case .file(let url):
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw SystemCallError("open", path: url.path, errno: Errno(rawValue: errno))
            }
            parentsCopies.append(descriptor)
            return (.descriptor(descriptor), nil)
        }
    }
}

extension URL {
    /// The tool `name` as the shell would find it on `PATH`, else `/usr/bin/NAME`, so that a
    /// missing tool fails when it is run, naming the path.
    public static func tool(_ name: String) -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/usr/bin").appendingPathComponent(name)
    }
}

/// SIGKILL for `pid` (libc's `kill`, which Foundation re-exports; `Process` only sends SIGTERM).
private func sendSIGKILL(_ pid: Int32) {
    _ = kill(pid, SIGKILL)
}

/// The end of a child: signalled by its termination handler, waited for with a deadline.
private final class Exit: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var ended: ChildSpawn.Termination?
    private var cached: ChildProcess.Result?

    var hasEnded: Bool { condition.withLock { ended != nil } }

    /// How the child ended; only read after a wait said it has.
    var termination: ChildSpawn.Termination { condition.withLock { ended ?? .exited(-1) } }

    func signal(_ termination: ChildSpawn.Termination) {
        condition.withLock {
            ended = termination
            condition.broadcast()
        }
    }

    /// Whether the child ended before `deadline`.
    func wait(until deadline: Date) -> Bool {
        condition.withLock {
            while ended == nil { if !condition.wait(until: deadline) { return ended != nil } }
            return true
        }
    }

    func waitForever() {
        condition.withLock { while ended == nil { condition.wait() } }
    }

    /// The first result recorded, so that waiting twice gives the same answer.
    func result(_ result: ChildProcess.Result) -> ChildProcess.Result {
        condition.withLock {
            if cached == nil { cached = result }
            return cached ?? result
        }
    }
}

/// Reads one pipe to its end on a thread of its own, keeping everything read.
private final class StreamReader: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var data = Data()
    private var ended = false

    init(_ descriptor: Int32) {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        Thread.detachNewThread { [self] in
            // One read's worth at a time, retried on EINTR (`availableData` traps on it).
            while let chunk = try? PipeReader.read(descriptor: handle.fileDescriptor), !chunk.isEmpty {
                condition.withLock {
                    data.append(contentsOf: chunk)
                    condition.broadcast()
                }
            }
            try? handle.close()
            condition.withLock {
                ended = true
                condition.broadcast()
            }
        }
    }

    /// Everything read once `satisfied` holds for it; nil if the stream ends or `deadline` passes first.
    func wait(until deadline: Date, _ satisfied: (Data) -> Bool) -> String? {
        condition.withLock {
            while !satisfied(data) {
                if ended || !condition.wait(until: deadline) {
                    return satisfied(data) ? String(decoding: data, as: UTF8.self) : nil
                }
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Everything read, once the stream has ended or `deadline` has passed.
    func waitForEnd(until deadline: Date) -> Data {
        condition.withLock {
            while !ended { if !condition.wait(until: deadline) { break } }
            return data
        }
    }
}
