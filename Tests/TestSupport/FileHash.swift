import Crypto
import Foundation

/// Digests of files that tests write into manifests and compare with what the code computed.
///
/// Computed with `Crypto`'s SHA-256 (OpenSSL), which CryptoTests check against the standard's
/// test vectors; the catalog, the store and the engine are the code under test, not this.
public enum FileHash {
    /// The SHA-256 of the file at `url`, as 64 lowercase hexadecimal digits.
    /// - Throws: when the file cannot be read, or OpenSSL fails.
    public static func sha256(_ url: URL) throws -> String {
        try sha256(Data(contentsOf: url))
    }

    /// The SHA-256 of `bytes`, as 64 lowercase hexadecimal digits.
    /// - Throws: when OpenSSL fails.
    public static func sha256<Bytes: Sequence>(_ bytes: Bytes) throws -> String where Bytes.Element == UInt8 {
        try Digest.hash(.sha256, bytes).hexString
    }
}
