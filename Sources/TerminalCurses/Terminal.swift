import CNCurses
import StorefrontUI

/// The ncurses backend: takes over the terminal, draws only the cells that changed since the
/// last frame, reads keys, reports resizes, and always gives the terminal back — on `stop()`,
/// at exit, on SIGINT/SIGTERM/SIGHUP and on a crash signal.
///
/// One instance at a time, used from one thread (the event loop's).
public final class Terminal {
    /// Whether standard input and output are both a terminal.
    public static var isInteractive: Bool { Platform.stdinAndStdoutAreTerminals }

    /// Whether `NO_COLOR` is set to a non-empty value (https://no-color.org).
    public static var noColorRequested: Bool { Platform.noColorRequested }

    /// Whether colors are drawn (false on monochrome terminals and when `NO_COLOR` is set).
    public var colorsEnabled: Bool { colors.enabled }

    private var colors: ColorPairs
    private var previous: Screen?
    private var started = false
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var pendingResize = false

    /// Takes over the terminal: UTF-8 locale, full screen, no echo, keys decoded, cursor hidden.
    /// - Parameter noColor: draw no colors even if the terminal has them (`NO_COLOR`).
    /// - Throws: `TerminalError.notATerminal` when standard input or output is not a terminal,
    ///   `.cannotInitialize` for a terminal type ncurses does not know, `.cannotAddressCursor`
    ///   for one that cannot move its cursor (`TERM=dumb`).
    public init(noColor: Bool = Terminal.noColorRequested) throws(TerminalError) {
        guard Platform.stdinAndStdoutAreTerminals else { throw .notATerminal }
        guard let wake = Platform.makePipe() else { throw .cannotCreateWakePipe }
        wakeRead = wake.read
        wakeWrite = wake.write
        Platform.adoptUTF8Locale()
        Platform.saveTerminalMode()
        // Our SIGINT/SIGTERM handlers go in before ncurses starts, so it keeps its hands off them.
        Platform.installSignalHandlers()
        let streams = Platform.standardStreams()
        let giveBack = {
            Platform.uninstallSignalHandlers()
            Platform.closeDescriptor(wake.read)
            Platform.closeDescriptor(wake.write)
        }
        guard let screen = newterm(nil, streams.output, streams.input) else {
            giveBack()
            throw .cannotInitialize(term: Platform.environment("TERM") ?? "unset")
        }
        // A terminal that cannot move its cursor (TERM=dumb) gets only what ncurses can write
        // line after line: a key bar, then the shell over it. Refused, as an unknown type is.
        guard Self.has("cup") else {
            endwin()
            delscreen(screen)
            giveBack()
            throw .cannotAddressCursor(term: Platform.environment("TERM") ?? "unset")
        }
        Platform.markActive()
        started = true
        colors = ColorPairs(noColor: noColor)
        cbreak()
        noecho()
        nonl()
        let window = cncurses_stdscr()
        keypad(window, true)
        // Home and End as VT220-style terminals and tmux send them, whatever TERM says.
        for (sequence, code) in [
            ("\u{1B}[1~", KEY_HOME), ("\u{1B}[4~", KEY_END), ("\u{1B}[7~", KEY_HOME),
            ("\u{1B}[8~", KEY_END), ("\u{1B}[H", KEY_HOME), ("\u{1B}[F", KEY_END),
            ("\u{1B}OH", KEY_HOME), ("\u{1B}OF", KEY_END),
        ] {
            _ = define_key(sequence, code)
        }
        intrflush(window, false)
        set_escdelay(25)
        curs_set(0)
        wtimeout(window, 0)
        Platform.prepareRestore(sequence: Self.restoreSequence(), wakeFD: wake.write)
    }

    deinit {
        stop()
        Platform.closeDescriptor(wakeRead)
        Platform.closeDescriptor(wakeWrite)
    }

    /// Gives the terminal back as it was. Safe to call more than once.
    public func stop() {
        guard started else { return }
        started = false
        curs_set(1)
        endwin()
        Platform.markRestored()
        Platform.uninstallSignalHandlers()
    }

    /// The terminal's size in columns and rows.
    public var size: (width: Int, height: Int) {
        let window = cncurses_stdscr()
        return (Int(getmaxx(window)), Int(getmaxy(window)))
    }

    /// Draws `screen`, sending only the cells that differ from the last frame drawn.
    /// - Returns: the number of cells sent to ncurses.
    @discardableResult
    public func draw(_ screen: Screen) -> Int {
        var surface = CursesSurface(colors: colors)
        let sent = DiffPainter.paint(ScreenDiff(from: previous, to: screen), on: &surface)
        colors = surface.colors
        previous = screen
        return sent
    }

    /// Forgets the last frame so the next `draw` repaints everything (after a resize).
    public func invalidate() {
        previous = nil
    }

    /// What `waitForEvents` found.
    public struct Events {
        /// Keys pressed, in order.
        public var keys: [Key] = []
        /// Whether the terminal changed size.
        public var resized = false
        /// Whether `wake()` was called since the last wait.
        public var woken = false
        /// The signal (SIGINT, SIGTERM or SIGHUP) that asked the app to quit, if one did.
        public var quitSignal: Int32?
        /// Whether a signal asked the app to quit.
        public var quitRequested: Bool { quitSignal != nil }
        /// Whether the timeout passed with nothing else happening.
        public var timedOut: Bool { keys.isEmpty && !resized && !woken && !quitRequested }
    }

    /// Blocks (no busy loop) until a key, a resize, a `wake()`, a quit signal, or the timeout.
    /// - Parameter timeoutMilliseconds: how long to wait; nil waits for an event.
    public func waitForEvents(timeoutMilliseconds: Int?) -> Events {
        var events = Events()
        let timeout = timeoutMilliseconds.map { Int32(clamping: max(0, $0)) } ?? -1
        let readiness = Platform.waitForInput(wakeFD: wakeRead, timeoutMilliseconds: timeout)
        if readiness.woken {
            Platform.drain(wakeRead)
            events.woken = true
        }
        // Our SIGWINCH handler (installed before ncurses, so it is the only one) only sets a
        // flag; the new size is applied here, outside the handler.
        if Platform.takeResize() {
            if let size = Platform.windowSize() { resizeterm(Int32(size.rows), Int32(size.columns)) }
            events.resized = true
            previous = nil
        }
        readKeys(into: &events)
        events.quitSignal = Platform.quitSignal
        return events
    }

    /// A thread-safe handle that wakes `waitForEvents` from another thread.
    public var waker: Waker { Waker(fd: wakeWrite) }

    /// Wakes the event loop from any thread (writes a byte to a pipe).
    public struct Waker: Sendable {
        let fd: Int32
        /// Makes the pending or next `waitForEvents` return.
        public func wake() { Platform.poke(fd) }
    }

    private func readKeys(into events: inout Events) {
        var value: wint_t = 0
        while true {
            let status = get_wch(&value)
            let input: KeyMapping.Input?
            if status == KEY_CODE_YES {
                input = KeyMapping.functionKey(Int32(bitPattern: value))
            } else if status == OK {
                input = KeyMapping.character(UInt32(value))
            } else {
                break
            }
            switch input {
            case .key(let key): events.keys.append(key)
            case .resize: events.resized = true
            case nil: continue
            }
        }
        if events.resized { previous = nil }
    }

    /// Whether the terminal's terminfo entry has the string capability `name`.
    private static func has(_ name: String) -> Bool {
        guard let value = tigetstr(name) else { return false }
        return Int(bitPattern: value) != -1
    }

    /// The terminfo strings that leave full-screen mode: attributes off, cursor on, keypad
    /// transmit off, alternate screen off — what a crash handler writes without ncurses.
    private static func restoreSequence() -> [UInt8] {
        var bytes: [UInt8] = []
        for capability in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            guard let value = tigetstr(capability), Int(bitPattern: value) != -1 else { continue }
            bytes.append(contentsOf: Array(String(cString: value).utf8))
        }
        bytes.append(contentsOf: Array("\r\n".utf8))
        return bytes
    }
}
