import Crypto

/// Asks a person for a passphrase (the terminal in production, a script in tests).
public protocol PassphrasePrompt: Sendable {
    /// Shows `message` and returns what was typed, without echoing it.
    /// - Throws: `VaultError.passphraseUnavailable` when no one can be asked.
    func passphrase(message: String) throws -> SecureBytes
}
