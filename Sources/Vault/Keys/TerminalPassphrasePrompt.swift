import Crypto
import Glibc

/// Reads a passphrase from the controlling terminal (`/dev/tty`) with echo turned off,
/// restoring the terminal's settings afterwards.
public struct TerminalPassphrasePrompt: PassphrasePrompt {
    /// The terminal device to use.
    public var device: String

    /// Creates a prompt on `device` (default `/dev/tty`).
    public init(device: String = "/dev/tty") { self.device = device }

    public func passphrase(message: String) throws -> SecureBytes {
        let fd = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.passphraseUnavailable(detail: "no terminal to ask on (\(device))") }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else {
            throw VaultError.passphraseUnavailable(detail: "\(device) is not a terminal")
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        // Echo off first, then the prompt: TCSAFLUSH drops type-ahead, which must only ever be
        // what was typed before the prompt appeared, never the answer to it.
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else {
            throw VaultError.passphraseUnavailable(detail: "cannot turn off echo on \(device)")
        }
        defer { _ = tcsetattr(fd, TCSANOW, &saved) }
        _ = Array(message.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var line: [UInt8] = []
        defer { for i in line.indices { line[i] = 0 } }
        var byte: UInt8 = 0
        while line.count < 4096 {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 || byte == 10 || byte == 13 { break }
            line.append(byte)
        }
        return SecureBytes(line)
    }
}
