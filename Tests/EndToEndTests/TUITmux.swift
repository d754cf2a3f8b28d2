import Foundation

/// A private tmux server (its own socket) running the built storefront in a pane, for
/// end-to-end tests in a real terminal. Waits are bounded polls of `capture-pane`.
final class TUITmux {
    let socket: String
    let session = "storefront"
    let width: Int
    let height: Int
    /// The shell prompt shown before the storefront starts and after it ends.
    static let prompt = "tui-shell$"

    /// Starts a tmux server with one `width`×`height` pane running `sh` in `directory`.
    init(width: Int = 100, height: Int = 30, directory: URL) throws {
        socket = "storefront-tui-\(getpid())-\(UUID().uuidString.prefix(8))"
        self.width = width
        self.height = height
        _ = try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", session,
                      "-c", directory.path, "env", "-i", "PATH=/usr/bin:/bin", "HOME=\(directory.path)",
                      "TERM=xterm-256color", "LANG=C.UTF-8", "PS1=\(Self.prompt) ", "sh"])
        _ = try tmux(["set-option", "-t", session, "status", "off"])
        try waitFor { $0.contains(Self.prompt) }
    }

    deinit { close() }

    /// Ends the session and its server (safe to call more than once). `kill-session` first:
    /// with its last session gone the server exits even where `kill-server` alone left it running.
    func close() {
        _ = try? tmux(["kill-session", "-t", session])
        _ = try? tmux(["kill-server"])
    }

    /// Runs tmux with this server's socket and returns its standard output.
    ///
    /// Spawned with `posix_spawn` and reaped with `waitpid`, output through a temporary file:
    /// `new-session` forks the tmux server, which inherits what the client had open, and
    /// Foundation's `Process` never saw that client exit.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let argv = ["tmux", "-L", socket] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw SpawnFailure(errno: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    struct SpawnFailure: Error { let errno: Int32 }

    /// Types a command line into the shell and presses Enter.
    func run(_ commandLine: String) throws {
        try tmux(["send-keys", "-t", session, "-l", commandLine])
        try tmux(["send-keys", "-t", session, "Enter"])
    }

    /// Sends keys by tmux name (`Enter`, `Escape`, `Down`) or literal text with `literal`.
    func keys(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", session] + (literal ? ["-l"] : []) + keys)
    }

    /// The pane's text now.
    func capture() throws -> String {
        try tmux(["capture-pane", "-p", "-t", session])
    }

    /// Whether the pane is in the alternate screen (a full-screen program is running).
    func alternateScreenOn() throws -> Bool {
        try tmux(["display-message", "-p", "-t", session, "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    struct Timeout: Error, CustomStringConvertible {
        let what: String
        let screen: String
        var description: String { "gave up waiting for \(what); the pane shows:\n\(screen)" }
    }

    /// Polls the pane until `condition` holds, at most `attempts` times (each poll lets the
    /// storefront run for a few milliseconds; the count bounds the wait, no timing is asserted).
    @discardableResult
    func waitFor(_ what: String = "the expected screen", attempts: Int = 1000, _ condition: (String) -> Bool) throws -> String {
        var screen = ""
        for _ in 0..<attempts {
            screen = try capture()
            if condition(screen) { return screen }
            usleep(20_000)
        }
        throw Timeout(what: what, screen: screen)
    }

    /// Waits until the pane shows `text`.
    @discardableResult
    func waitFor(text: String, attempts: Int = 1000) throws -> String {
        try waitFor("“\(text)”", attempts: attempts) { $0.contains(text) }
    }
}
