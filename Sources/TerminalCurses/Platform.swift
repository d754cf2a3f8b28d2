#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every libc call of the terminal backend: descriptors, polling, the wake pipe and signals.
///
/// What a signal handler touches lives here too, in `SignalState`, because a C signal handler
/// can capture nothing and may call only async-signal-safe functions (`write`, `tcsetattr`,
/// `sigaction`, `raise`): the restore bytes and the saved terminal mode are prepared before the
/// handlers are installed and never change while they are.
enum Platform {
    // MARK: - Descriptors

    /// Whether both standard input and standard output are a terminal.
    static var stdinAndStdoutAreTerminals: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// A non-blocking, close-on-exec pipe; nil when the system refuses one.
    static func makePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    /// Closes a descriptor (the wake pipe's ends).
    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Standard output and input as C streams, for `newterm`. ncurses keeps them for the whole
    /// session and they are never closed: closing them would close descriptors 1 and 0.
    static func standardStreams() -> (output: UnsafeMutablePointer<FILE>?, input: UnsafeMutablePointer<FILE>?) {
        (fdopen(1, "w"), fdopen(0, "r"))
    }

    /// Reads and discards everything waiting in a non-blocking descriptor.
    static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    /// Writes one byte to wake the loop (a full pipe already means "awake").
    static func poke(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    /// What woke `waitForInput`.
    struct Readiness {
        /// The terminal has bytes to read.
        var input = false
        /// Someone wrote to the wake pipe.
        var woken = false
        /// A signal arrived (a resize, Ctrl-C, SIGTERM).
        var interrupted = false
    }

    /// Blocks until the terminal has input, the wake pipe is written, a signal arrives, or
    /// `timeoutMilliseconds` pass (negative: no timeout). No busy loop: `poll(2)`.
    static func waitForInput(wakeFD: Int32, timeoutMilliseconds: Int32) -> Readiness {
        var fds = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        let n = poll(&fds, 2, timeoutMilliseconds)
        var readiness = Readiness()
        if n < 0 {
            readiness.interrupted = errno == EINTR
            return readiness
        }
        readiness.input = fds[0].revents != 0
        readiness.woken = fds[1].revents != 0
        return readiness
    }

    /// The monotonic clock in milliseconds, for the loop's own timeouts.
    static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    // MARK: - Environment

    /// The value of environment variable `name`, copied (`getenv`'s storage is not ours).
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether `NO_COLOR` is set to a non-empty value (https://no-color.org).
    static var noColorRequested: Bool {
        guard let value = getenv("NO_COLOR") else { return false }
        return value.pointee != 0
    }

    /// Makes the C library speak UTF-8: the user's locale, or C.UTF-8 if theirs is not UTF-8.
    static func adoptUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset.uppercased().filter({ $0 != "-" }) != "UTF8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    // MARK: - Signals

    /// The terminal mode before the app changed it, and the bytes that undo full-screen mode.
    static func prepareRestore(sequence: [UInt8], wakeFD: Int32) {
        SignalState.restoreBytes.deallocate()
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, sequence.count))
        _ = buffer.initialize(from: sequence)
        SignalState.restoreBytes = buffer
        SignalState.restoreCount = sequence.count
        SignalState.wakeFD = wakeFD
    }

    /// Saves the terminal's current mode so a crash handler can put it back.
    static func saveTerminalMode() {
        SignalState.hasSavedMode = tcgetattr(0, &SignalState.savedMode) == 0
    }

    /// Installs the handlers: SIGINT and SIGTERM ask the loop to quit (a second one restores
    /// the terminal and exits at once); crash signals restore the terminal, then re-raise
    /// through the handler that was there before (the Swift runtime's backtracer, or the default).
    static func installSignalHandlers() {
        for signal in [SIGINT, SIGTERM, SIGHUP] { install(signal, handler: quitSignalHandler) }
        install(SIGWINCH, handler: resizeSignalHandler)
        for signal in [SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE, SIGTRAP] {
            install(signal, handler: crashSignalHandler)
        }
        SignalState.installed = true
        if !SignalState.atexitRegistered {
            SignalState.atexitRegistered = true
            atexit { Platform.restoreTerminalFromSignal() }
        }
    }

    /// Puts every handler back as it was.
    static func uninstallSignalHandlers() {
        guard SignalState.installed else { return }
        SignalState.installed = false
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE, SIGTRAP] {
            sigaction(signal, SignalState.previous + Int(signal), nil)
        }
    }

    /// Whether SIGWINCH arrived since the last call (and clears it).
    static func takeResize() -> Bool {
        guard SignalState.resized != 0 else { return false }
        SignalState.resized = 0
        return true
    }

    /// The terminal's size from the kernel (`TIOCGWINSZ`), nil when it will not say.
    static func windowSize() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Whether SIGINT, SIGTERM or SIGHUP arrived.
    static var quitRequested: Bool { SignalState.quitSignal != 0 }

    /// The quit signal received, if any.
    static var quitSignal: Int32? { SignalState.quitSignal == 0 ? nil : Int32(SignalState.quitSignal) }

    /// Marks the terminal as restored by the app, so the exit and crash paths leave it alone.
    static func markRestored() { SignalState.active = 0 }
    /// Marks the terminal as in full-screen mode.
    static func markActive() { SignalState.active = 1 }

    private static func install(_ signal: Int32, handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, SignalState.previous + Int(signal))
    }

    /// Async-signal-safe: writes the prepared bytes and puts the saved terminal mode back.
    static func restoreTerminalFromSignal() {
        guard SignalState.active != 0 else { return }
        SignalState.active = 0
        if let base = SignalState.restoreBytes.baseAddress, SignalState.restoreCount > 0 {
            _ = write(1, base, SignalState.restoreCount)
        }
        if SignalState.hasSavedMode { tcsetattr(0, TCSANOW, &SignalState.savedMode) }
    }
}

/// State shared with signal handlers. C handlers cannot capture context, so this is global;
/// it is written only while no handler is installed (or with plain word-sized stores that
/// handlers only read), which is why it is `nonisolated(unsafe)` rather than behind a lock —
/// a lock in a signal handler could deadlock.
enum SignalState {
    nonisolated(unsafe) static var restoreBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1)
    nonisolated(unsafe) static var restoreCount = 0
    nonisolated(unsafe) static var savedMode = termios()
    nonisolated(unsafe) static var hasSavedMode = false
    nonisolated(unsafe) static var wakeFD: Int32 = -1
    nonisolated(unsafe) static var quitSignal: sig_atomic_t = 0
    nonisolated(unsafe) static var active: sig_atomic_t = 0
    nonisolated(unsafe) static var resized: sig_atomic_t = 0
    nonisolated(unsafe) static var installed = false
    nonisolated(unsafe) static var atexitRegistered = false
    /// The handlers found at install time, indexed by signal number (a fixed C buffer: no
    /// reference counting inside a handler).
    static let signalSlots = 65
    nonisolated(unsafe) static var previous: UnsafeMutablePointer<sigaction> = {
        let slots = UnsafeMutablePointer<sigaction>.allocate(capacity: signalSlots)
        slots.initialize(repeating: sigaction(), count: signalSlots)
        return slots
    }()
}

private func quitSignalHandler(_ signal: Int32) {
    if SignalState.quitSignal != 0 {
        // Asked twice: the loop is stuck; restore and leave now.
        Platform.restoreTerminalFromSignal()
        _exit(128 + signal)
    }
    SignalState.quitSignal = signal
    if SignalState.wakeFD >= 0 { Platform.poke(SignalState.wakeFD) }
}

private func resizeSignalHandler(_ signal: Int32) {
    SignalState.resized = 1
    if SignalState.wakeFD >= 0 { Platform.poke(SignalState.wakeFD) }
}

private func crashSignalHandler(_ signal: Int32) {
    Platform.restoreTerminalFromSignal()
    sigaction(signal, SignalState.previous + Int(signal), nil)
    raise(signal)
}
