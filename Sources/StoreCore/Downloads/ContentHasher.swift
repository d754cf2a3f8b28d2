import Crypto

/// A running SHA-256 whose failures are `DownloadError`s (OpenSSL digest state cannot be
/// saved, so a resume re-hashes the durable bytes instead).
struct ContentHasher: ~Copyable {
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

    /// The hex digest of everything fed in.
    consuming func finish() throws(DownloadError) -> String {
        do {
            return try digest.finalize().hexString
        } catch {
            throw .transferFailed("SHA-256 failed: \(error)")
        }
    }

    /// The hex digest so far, starting again from nothing.
    mutating func finishAndRestart() throws(DownloadError) -> String {
        var finished = try ContentHasher()
        swap(&finished, &self)
        return try finished.finish()
    }
}
