import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a secret from a terminal device with echo off, restoring the terminal's settings
/// afterwards. It lives here rather than in `TerminalCurses` because the vault, far below the
/// ncurses layer, asks for its passphrase through it.
public enum TerminalInput {
    /// Why nothing could be read.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The device cannot be opened (no controlling terminal).
        case unavailable(device: String)
        /// The device is not a terminal.
        case notATerminal(device: String)
        /// Echo could not be turned off, so nothing was asked.
        case cannotDisableEcho(device: String)

        /// What went wrong, naming the device.
        public var description: String {
            switch self {
            case .unavailable(let device): "no terminal to ask on (\(device))"
            case .notATerminal(let device): "\(device) is not a terminal"
            case .cannotDisableEcho(let device): "cannot turn off echo on \(device)"
            }
        }
    }

    /// Shows `prompt` on `device` and reads one line with echo off (the newline is echoed).
    /// - Parameters:
    ///   - device: the terminal, `/dev/tty` for the controlling one.
    ///   - prompt: written to the terminal once echo is off.
    ///   - maximumLength: bytes kept at most.
    ///   - consume: receives the line (without its newline); the buffer is zeroed afterwards.
    /// - Returns: what `consume` returns.
    public static func readHiddenLine<Result>(
        device: String, prompt: String, maximumLength: Int = 4096, _ consume: ([UInt8]) -> Result
    ) throws(Failure) -> Result {
        let fd = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .unavailable(device: device) }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { throw .notATerminal(device: device) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        // Echo off first, then the prompt: TCSAFLUSH drops type-ahead, which must only ever be
        // what was typed before the prompt appeared, never the answer to it.
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { throw .cannotDisableEcho(device: device) }
        defer { _ = tcsetattr(fd, TCSANOW, &saved) }
        _ = Array(prompt.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var line: [UInt8] = []
        line.reserveCapacity(maximumLength)  // no reallocation leaves a copy of the secret behind
        defer { for i in line.indices { line[i] = 0 } }
        var byte: UInt8 = 0
        while line.count < maximumLength {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 || byte == 10 || byte == 13 { break }
            line.append(byte)
        }
        byte = 0
        return consume(line)
    }
}

extension TerminalInput.Failure: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
