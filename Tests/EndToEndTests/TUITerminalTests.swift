import Foundation
import TestSupport
import Testing

/// The storefront's terminal handling in real terminals: resizes, `NO_COLOR`, monochrome
/// terminals, and refusing to start without a terminal.
@Suite(.waitsOnProcesses, .serialized) struct TUITerminalTests {
    @Test func resizeRedrawsAndTooSmallSaysSo() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront)
        defer { tmux.close() }
        try tmux.tmux(["resize-window", "-t", tmux.session, "-x", "50", "-y", "12"])
        try await tmux.waitFor(text: "Terminal too small: 50×12")
        try tmux.tmux(["resize-window", "-t", tmux.session, "-x", "120", "-y", "40"])
        // Wide enough for the description beside the list, in a whole frame (halfway down the
        // redraw, the old "Terminal too small" still shows below the rows drawn).
        let wide = try await tmux.waitFor("the side-by-side layout") {
            $0.contains("100 Coins") && $0.contains("╮╭ Description")
        }
        #expect(wide.split(separator: "\n").allSatisfy { !$0.contains("Terminal too small") }, "\(wide)")
        try await tmux.quit()
    }

    /// Whether any SGR sequence sets a foreground or background color (30–37, 40–47, 38;…, 48;…,
    /// 90–97, 100–107); 39 and 49 (the defaults) are not colors.
    private func drawsColors(_ styled: String) -> Bool {
        styled.matches(of: /\x1B\[([0-9;]*)m/).contains { match in
            match.output.1.split(separator: ";").compactMap { Int($0) }.contains {
                (30...38).contains($0) || (40...48).contains($0) || (90...97).contains($0) || (100...107).contains($0)
            }
        }
    }

    /// The pane's visible text with its escape sequences (`capture-pane -e`), a whole frame.
    private func styledFrame(_ tmux: TUITmux) async throws -> String {
        try await tmux.waitFor("a whole frame", styled: true) { _ in true }
    }

    @Test(arguments: [("NO_COLOR=1 ", "xterm-256color"), ("", "vt100")])
    func noColorAndMonochromeDrawNoColors(environment: String, term: String) async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront, environment: "\(environment)TERM=\(term) ")
        defer { tmux.close() }
        let styled = try await styledFrame(tmux)
        // Foreground 30–37 / background 40–47 (and 38;/48; extended) would be colors.
        #expect(!drawsColors(styled), "\(environment)TERM=\(term) drew colors")
        #expect(styled.contains("\u{1B}[7m") || styled.contains(";7m"), "the selection is still shown in reverse video")
        try tmux.keys("q")
        // vt100 has no alternate screen: the last frame stays, the prompt comes below it.
        try await tmux.waitFor("the prompt") { screen in
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains(
                TUITmux.prompt) == true
        }
    }

    @Test func colorTerminalDrawsColors() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront)
        defer { tmux.close() }
        let styled = try await styledFrame(tmux)
        #expect(drawsColors(styled), "colors on a color terminal")
        try await tmux.quit()
    }

    /// The pid of the storefront running in the pane (the shell's child).
    private func storefrontPID(_ tmux: TUITmux) throws -> Int32 {
        let shell = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return try #require(children.split(separator: " ").first.flatMap { Int32($0) })
    }

    @Test(arguments: [SIGSEGV, SIGABRT, SIGBUS])
    func aCrashRestoresTheTerminal(signal: Int32) async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUITmux(directory: TUIEndToEndTests.repositoryRoot)
        defer { tmux.close() }
        // Without the Swift backtracer our handler re-raises into the default action. (With it, a
        // signal sent from outside leaves the backtracer's handler waiting; a real fault
        // re-faults and dies.)
        try await TUIEndToEndTests.launch(tmux, storefront, environment: "SWIFT_BACKTRACE=enable=no ")
        #expect(try tmux.alternateScreenOn())
        kill(try storefrontPID(tmux), signal)
        // The crash handler leaves full-screen mode, then the signal kills the process as before;
        // the shell's prompt comes back on a line of its own.
        try await tmux.waitFor("the prompt after the crash") { screen in
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                .trimmingCharacters(in: .whitespaces) == TUITmux.prompt
        }
        #expect(try !tmux.alternateScreenOn())
        // The terminal mode came back too: the shell echoes what is typed.
        try tmux.run("echo restored-$((6*7))")
        try await tmux.waitFor(text: "restored-42")
    }

    /// A terminal the storefront cannot draw on (none named, an unknown type, or one that cannot
    /// move its cursor: QA found `TERM=dumb` drew only the key bar, the shell printing over it):
    /// it says so once, named once, draws nothing and exits 1 with the shell's prompt where it was.
    @Test(arguments: [
        ("", "storefront: cannot set up the terminal of type ''"),
        ("no-such-terminal", "storefront: cannot set up the terminal of type 'no-such-terminal'"),
        ("dumb", "storefront: the terminal of type 'dumb' cannot move its cursor"),
    ])
    func anUnusableTerminalIsRefusedWithOneMessage(term: String, message: String) async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUITmux(width: 250, height: 20, directory: TUIEndToEndTests.repositoryRoot)
        defer { tmux.close() }
        try tmux.run("TERM=\(term) \(storefront.commandLine); echo exit=$?")
        try await tmux.waitFor("the shell after the storefront") {
            $0.range(of: #"exit=[0-9]"#, options: .regularExpression) != nil
        }
        let screen = try tmux.capture().split(separator: "\n").joined()
        #expect(screen.contains("exit=1"), "\(screen)")
        #expect(screen.contains(message), "\(screen)")
        #expect(!screen.contains("storefront: storefront:"), "\(screen)")
        #expect(!screen.contains("Enter Buy"), "nothing of the storefront is drawn: \(screen)")
    }

    @Test func withoutATerminalItPointsAtTheCLI() throws {
        let result = try StorefrontProcess.run([], cwd: TUIEndToEndTests.repositoryRoot)
        #expect(result.stderr.contains("needs a terminal"))
        #expect(result.stderr.contains("storefront products"))
        #expect(result.stdout.contains("USAGE: storefront"))
    }
}
