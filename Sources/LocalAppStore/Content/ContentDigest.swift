internal import Crypto
import Foundation

/// SHA-256 of content files through OpenSSL, for checking a catalog's content sidecar when
/// it loads: `StoreKitConfiguration.load(contentsOf:contentDigester: ContentDigest.sha256)`.
public enum ContentDigest {
    /// Why a file could not be digested.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The lowercase hex SHA-256 of a file, read in 64 KiB blocks (memory stays flat).
    public static let sha256: ContentDigester = { path in
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure(description: "cannot open \(path)")
        }
        defer { try? handle.close() }
        var digest = try Digest(.sha256)
        while true {
            guard let block = try handle.read(upToCount: 1 << 16), !block.isEmpty else { break }
            try block.withUnsafeBytes { try digest.update($0) }
        }
        return try digest.finalize().hexString
    }
}

extension ContentDigest.Failure: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
