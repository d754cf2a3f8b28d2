/// Where a download is in its life, as `SKDownloadState` names it; stored raw, so states a
/// newer version writes survive a round trip through an older one.
public struct DownloadState: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Queued, not started yet.
    public static let waiting = DownloadState(rawValue: "waiting")
    /// Bytes are arriving.
    public static let active = DownloadState(rawValue: "active")
    /// Stopped by the app or the user; `resume` continues from the last durable offset.
    public static let paused = DownloadState(rawValue: "paused")
    /// Verified and installed.
    public static let finished = DownloadState(rawValue: "finished")
    /// Stopped by an error (`Download.error`); retryable.
    public static let failed = DownloadState(rawValue: "failed")
    /// Cancelled; its partial bytes are gone. Retryable with `resume` or `retryDownloads`.
    public static let cancelled = DownloadState(rawValue: "cancelled")

    public var description: String { rawValue }

    /// Whether the download is over for now (finished, failed or cancelled).
    public var isTerminal: Bool { self == .finished || self == .failed || self == .cancelled }
}
