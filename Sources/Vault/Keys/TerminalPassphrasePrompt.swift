import Crypto
import SystemIO

/// Reads a passphrase from the controlling terminal (`/dev/tty`) with echo turned off,
/// restoring the terminal's settings afterwards.
public struct TerminalPassphrasePrompt: PassphrasePrompt {
    /// The terminal device to use.
    public var device: String

    /// Creates a prompt on `device` (default `/dev/tty`).
    public init(device: String = "/dev/tty") { self.device = device }

    public func passphrase(message: String) throws -> SecureBytes {
        do {
            return try TerminalInput.readHiddenLine(device: device, prompt: message) { SecureBytes($0) }
        } catch {
            throw VaultError.passphraseUnavailable(detail: error.description)
        }
    }
}
