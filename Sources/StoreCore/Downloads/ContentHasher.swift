internal import Crypto

/// A running SHA-256 whose failures are `DownloadError`s. OpenSSL digest state cannot be
/// saved to disk, so a resume re-hashes the durable bytes; within a process it can be copied,
/// so the digest of every prefix (`digestSoFar`) costs no second pass over the bytes.
/// Sendable as it is never copied: its `Digest` never escapes, so one owner uses it at a time.
struct ContentHasher: ~Copyable, @unchecked Sendable {
    private var digest: Digest

    init() throws(DownloadError) {
        do {
            digest = try Digest(.sha256)
        } catch {
            throw .transferFailed("SHA-256 is unavailable: \(error)")
        }
    }

    mutating func update(_ bytes: [UInt8]) throws(DownloadError) {
        do {
            try bytes.withUnsafeBytes { try digest.update($0) }
        } catch {
            throw .transferFailed("SHA-256 failed: \(error)")
        }
    }

    /// The hex digest of everything fed in so far; this one goes on.
    func digestSoFar() throws(DownloadError) -> String {
        do {
            return try digest.copy().finalize().hexString
        } catch {
            throw .transferFailed("SHA-256 failed: \(error)")
        }
    }

    /// The hex digest of everything fed in.
    consuming func finish() throws(DownloadError) -> String {
        do {
            return try digest.finalize().hexString
        } catch {
            throw .transferFailed("SHA-256 failed: \(error)")
        }
    }
}
