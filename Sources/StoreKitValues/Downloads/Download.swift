import Foundation

/// One hosted-content download, as `SKDownload` describes it: which transaction and content
/// it belongs to, its state and its progress.
public struct Download: Codable, Hashable, Sendable, Identifiable {
    /// The download's identifier: the transaction's identifier (one download per transaction).
    public let id: String
    /// The transaction whose content this is.
    public let transactionID: String
    /// The product whose content this is.
    public let productID: String
    /// The content version being downloaded.
    public let contentVersion: String
    /// The state (stored raw).
    public var state: DownloadState
    /// Bytes received and written so far.
    public var bytesWritten: Int64
    /// Bytes in the whole content.
    public var totalBytes: Int64
    /// Bytes per second over the last few seconds of the injected clock; 0 when unknown.
    public var bytesPerSecond: Double
    /// Why it failed, when `state` is `.failed`.
    public var error: DownloadError?
    /// Where the content is installed, once `state` is `.finished`.
    public var contentPath: String?

    /// Creates a download value.
    public init(
        id: String, transactionID: String, productID: String, contentVersion: String,
        state: DownloadState, bytesWritten: Int64, totalBytes: Int64, bytesPerSecond: Double = 0,
        error: DownloadError? = nil, contentPath: String? = nil
    ) {
        self.id = id
        self.transactionID = transactionID
        self.productID = productID
        self.contentVersion = contentVersion
        self.state = state
        self.bytesWritten = bytesWritten
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.error = error
        self.contentPath = contentPath
    }

    /// What `pause`/`cancel` answer for a download whose record is gone.
    package static func placeholder(_ id: String, _ state: DownloadState) -> Download {
        Download(
            id: id, transactionID: id, productID: "", contentVersion: "", state: state, bytesWritten: 0, totalBytes: 0)
    }

    /// Progress from 0 to 1 (1 for empty content).
    public var fraction: Double {
        guard totalBytes > 0 else { return state == .finished ? 1 : 0 }
        return min(1, max(0, Double(bytesWritten) / Double(totalBytes)))
    }

    /// Seconds left at the current rate, `nil` while the rate is unknown.
    public var timeRemaining: TimeInterval? {
        guard bytesPerSecond > 0, state == .active else { return nil }
        return Double(max(0, totalBytes - bytesWritten)) / bytesPerSecond
    }
}
