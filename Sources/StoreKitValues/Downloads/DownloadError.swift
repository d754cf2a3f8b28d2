import Foundation

/// Why a download failed, in words a person can act on.
public enum DownloadError: Error, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The content's source (the store or a web server) failed or could not be reached.
    case transferFailed(String)
    /// The source sent a manifest that cannot be used safely.
    case invalidManifest(String)
    /// A downloaded file does not match the manifest's SHA-256.
    case checksumMismatch(file: String, expected: String, actual: String)
    /// A downloaded file does not have the manifest's size.
    case sizeMismatch(file: String, expected: Int64, actual: Int64)
    /// The disk is full.
    case diskFull(path: String)
    /// A directory or file cannot be written (permissions, read-only file system).
    case notWritable(path: String, reason: String)
    /// Another file-system error.
    case fileSystem(path: String, reason: String)
    /// No download with this identifier is known.
    case unknownDownload(String)
    /// The product has no hosted content.
    case noContent(productID: String)

    public var description: String {
        switch self {
        case .transferFailed(let why): "The download failed: \(why)"
        case .invalidManifest(let why): "The content's manifest is unusable: \(why)"
        case .checksumMismatch(let file, let expected, let actual):
            "\(file): SHA-256 mismatch (expected \(expected), got \(actual)); the download was discarded"
        case .sizeMismatch(let file, let expected, let actual):
            "\(file): expected \(expected) bytes, received \(actual)"
        case .diskFull(let path): "The disk is full (writing \(path)); free some space and retry the download"
        case .notWritable(let path, let reason): "Cannot write \(path): \(reason); check its permissions and retry"
        case .fileSystem(let path, let reason): "File error at \(path): \(reason)"
        case .unknownDownload(let id): "No download \(id) is known."
        case .noContent(let id): "The product \(id) has no hosted content."
        }
    }
}

extension DownloadError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
