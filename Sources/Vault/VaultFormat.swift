import Crypto

/// Constants of the vault file format (see Docs/VAULT-FORMAT.md once written).
public enum VaultFormat {
    /// The first bytes of every vault file.
    public static let magic: [UInt8] = Array("SFVAULT\0".utf8)
}
