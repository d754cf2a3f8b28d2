import Foundation
import SystemIO
import TestSupport

/// A private tmux server (its own socket) running the built storefront in a pane, for
/// end-to-end tests in a real terminal.
///
/// Waits are driven by the pane's output, not by sleeping: tmux pipes everything the pane
/// prints into a FIFO (`pipe-pane`), and a wait reads the screen again each time new output
/// arrives. Waits run on a thread of their own, off Swift's cooperative pool (as many threads
/// as cores, two here), so a test waiting on the terminal never holds up the rest of the suite.
///
/// A wait judges whole frames only. The storefront's frame reaches tmux in pieces (ncurses
/// writes it a row or less at a time, and tmux parses each read), so a read can land halfway
/// down a frame: the new header over the old rows. The storefront ends every frame with its
/// hidden cursor at the top-left corner (`CursesSurface.refresh`), where it is otherwise only
/// before a frame's first cell or just after a clear, so a read of the storefront's screen
/// counts when tmux's cursor is there and something is drawn.
final class TUITmux: @unchecked Sendable {
    let socket: String
    let session = "storefront"
    let width: Int
    let height: Int
    /// The shell prompt shown before the storefront starts and after it ends.
    static let prompt = "tui-shell$"
    /// How long a wait gives the terminal before it fails: a bound for a stuck test, not a
    /// timing assertion (the screen is read again as soon as the pane prints).
    static let patience: TimeInterval = 90

    private let scratch: TemporaryDirectory
    /// The read end of the FIFO the pane's output arrives on (opened read-write, so that it
    /// never reads end-of-file while tmux reopens its end).
    private let output: Int32

    /// Starts a tmux server with one `width`×`height` pane running `sh` in `directory`.
    init(width: Int = 100, height: Int = 30, directory: URL) async throws {
        socket = "storefront-tui-\(getpid())-\(UUID().uuidString.prefix(8))"
        self.width = width
        self.height = height
        scratch = try TemporaryDirectory(prefix: socket)
        let fifo = scratch.path("pane-output")
        guard mkfifo(fifo, 0o600) == 0 else {
            throw SystemCallError("mkfifo", path: fifo, errno: Errno(rawValue: errno))
        }
        output = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard output >= 0 else { throw SystemCallError("open", path: fifo, errno: Errno(rawValue: errno)) }
        _ = try tmux([
            "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", session,
            "-c", directory.path, "env", "-i", "PATH=/usr/bin:/bin", "HOME=\(directory.path)",
            "TERM=xterm-256color", "LANG=C.UTF-8", "PS1=\(Self.prompt) ", "sh",
        ])
        _ = try tmux(["set-option", "-t", session, "status", "off"])
        _ = try tmux(["pipe-pane", "-O", "-t", session, "exec cat > '\(fifo)'"])
        try await waitFor { $0.contains(Self.prompt) }
    }

    deinit {
        close()
        Foundation.close(output)
    }

    /// Quits the storefront: `closing` Escapes to leave its windows, then q, and waits for the
    /// shell's prompt with `gone` (text of the storefront's screen) no longer on it.
    func quit(closing windows: Int = 0, gone shown: String = "100 Coins") async throws {
        for _ in 0..<windows { try keys("Escape") }
        try keys("q")
        try await waitFor("the shell prompt after quitting") { $0.contains(Self.prompt) && !$0.contains(shown) }
    }

    /// Ends the session and its server (safe to call more than once). `kill-session` first:
    /// with its last session gone the server exits even where `kill-server` alone left it running.
    func close() {
        _ = try? tmux(["kill-session", "-t", session])
        _ = try? tmux(["kill-server"])
    }

    /// Runs tmux with this server's socket and returns its standard output.
    ///
    /// Output goes through a temporary file, not a pipe: `new-session` forks the tmux server,
    /// which inherits what the client had open and would hold a pipe open after the client exits.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = scratch.url("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try ChildProcess.run(
            .tool("tmux"), ["-L", socket] + arguments, standardOutput: .file(output), standardError: .discard)
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    /// Types a command line into the shell and presses Enter.
    func run(_ commandLine: String) throws {
        try tmux(["send-keys", "-t", session, "-l", commandLine])
        try tmux(["send-keys", "-t", session, "Enter"])
    }

    /// Sends keys by tmux name (`Enter`, `Escape`, `Down`) or literal text with `literal`.
    func keys(_ keys: String..., literal: Bool = false) throws {
        try send(keys, literal: literal)
    }

    /// Sends `keys` (as `keys(_:literal:)`) and waits until the pane shows `text`: one step of
    /// a session, a key and what it brings up.
    @discardableResult
    func press(_ keys: String..., literal: Bool = false, until text: String) async throws -> String {
        try send(keys, literal: literal)
        return try await waitFor(text: text)
    }

    private func send(_ keys: [String], literal: Bool) throws {
        try tmux(["send-keys", "-t", session] + (literal ? ["-l"] : []) + keys)
    }

    /// The pane's text now, whole frame or not (for the shell's screen: see `waitFor`).
    func capture() throws -> String {
        try tmux(["capture-pane", "-p", "-t", session])
    }

    /// The program whose frames a wait reads whole: the built storefront.
    private static let program = BuiltProduct.storefront.lastPathComponent

    /// What a wait reads: the pane's text and whether it is a whole frame.
    struct Capture {
        /// The pane's rows (with their escape sequences when read `styled`).
        let screen: String
        /// True unless the storefront runs in the pane and is drawing a frame.
        let isWhole: Bool
    }

    /// Reads the pane's text and, in the same tmux command list (nothing the pane prints is
    /// parsed between the two), its foreground program and cursor.
    private func snapshot(styled: Bool) throws -> Capture {
        let output = try tmux(
            ["capture-pane", "-p"] + (styled ? ["-e"] : []) + [
                "-t", session, ";",
                "display-message", "-p", "-t", session, "#{cursor_x},#{cursor_y},#{pane_current_command}",
            ])
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        let state = lines.popLast().map { $0.split(separator: ",", maxSplits: 2).map(String.init) } ?? []
        let screen = lines.joined(separator: "\n")
        guard state.count == 3, state[2] == Self.program else { return Capture(screen: screen, isWhole: true) }
        // At the corner with nothing drawn is the blank of a clear (at the start, after a resize).
        let drawn = screen.replacing(/\x1B\[[0-9;:]*m/, with: "").contains { !$0.isWhitespace }
        return Capture(screen: screen, isWhole: state[0] == "0" && state[1] == "0" && drawn)
    }

    /// Whether the pane is in the alternate screen (a full-screen program is running).
    func alternateScreenOn() throws -> Bool {
        try tmux(["display-message", "-p", "-t", session, "#{alternate_on}"]).trimmingCharacters(
            in: .whitespacesAndNewlines) == "1"
    }

    struct Timeout: Error, CustomStringConvertible {
        let what: String
        let last: Capture
        var description: String {
            "gave up waiting for \(what); the pane shows\(last.isWhole ? "" : " (a frame still being drawn)"):\n\(last.screen)"
        }
    }

    /// Reads the pane until `condition` holds for a whole frame (see the type's notes), again
    /// each time the pane prints something; `styled` reads the escape sequences too.
    /// - Throws: `Timeout` with the last screen when nothing shows it within `patience`.
    @discardableResult
    func waitFor(
        _ what: String = "the expected screen", styled: Bool = false, _ condition: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        try await Self.offThePool { [self] in
            let deadline = Date().addingTimeInterval(Self.patience)
            while true {
                drainOutput()
                let capture = try snapshot(styled: styled)
                if capture.isWhole, condition(capture.screen) { return capture.screen }
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0, awaitOutput(within: remaining) else { throw Timeout(what: what, last: capture) }
            }
        }
    }

    /// Waits until the pane shows `text`.
    @discardableResult
    func waitFor(text: String) async throws -> String {
        try await waitFor("“\(text)”") { $0.contains(text) }
    }

    /// Blocks until the pane prints something or `seconds` pass; `false` when nothing came.
    private func awaitOutput(within seconds: TimeInterval) -> Bool {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, Int32(min(seconds * 1000, Double(Int32.max))))
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }

    /// Discards the output seen so far: the screen read next includes it.
    private func drainOutput() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while read(output, &buffer, buffer.count) > 0 {}
    }

    /// Runs `body` on a thread of its own and waits for it without holding a pool thread.
    private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
