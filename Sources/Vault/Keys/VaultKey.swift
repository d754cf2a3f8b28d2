import Crypto
import Foundation

/// What unlocks a vault: a key file (the default) or a passphrase.
public enum VaultKey: Sendable {
    /// A random 256-bit key in a file (mode 0600), created with the vault on first use.
    case keyFile(URL)
    /// A passphrase, stretched with scrypt.
    case passphrase(SecureBytes)
    /// A passphrase asked for only if the vault needs one.
    case askPassphrase(any PassphrasePrompt)

    /// The environment variable holding a passphrase.
    public static let passphraseVariable = "STOREFRONT_PASSPHRASE"

    /// The key a program should use: the passphrase in `STOREFRONT_PASSPHRASE` when set,
    /// else the key file. The caller passes its environment; the library never reads it.
    /// - Parameters:
    ///   - environment: the process environment (e.g. `ProcessInfo.processInfo.environment`).
    ///   - keyFile: the key file to use when there is no passphrase.
    public static func fromEnvironment(_ environment: [String: String], keyFile: URL) -> VaultKey {
        if let passphrase = environment[passphraseVariable], !passphrase.isEmpty {
            return .passphrase(SecureBytes(Array(passphrase.utf8)))
        }
        return .keyFile(keyFile)
    }

    /// The key file conventionally kept beside `vault` (`NAME.key`).
    public static func defaultKeyFile(for vault: URL) -> URL {
        vault.deletingPathExtension().appendingPathExtension("key")
    }
}
