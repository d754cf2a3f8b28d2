/// The progress of one hosted-content download, as the engine reports it.
public struct DownloadProgress: Hashable, Sendable {
    /// Where a download is.
    public enum Phase: String, Hashable, Sendable {
        case waiting, active, paused, finished, failed, cancelled
    }

    /// The download's identifier (for pause, resume, cancel).
    public var id: String
    /// The product whose content this is.
    public var productID: String
    public var phase: Phase
    /// Bytes on disk so far.
    public var bytesWritten: Int64
    /// Bytes in all (0 when unknown).
    public var totalBytes: Int64
    /// The current rate in bytes per second.
    public var bytesPerSecond: Double
    /// Seconds until done at the current rate, when known.
    public var secondsRemaining: Double?
    /// Why it failed.
    public var error: String?

    /// Creates a progress report.
    public init(
        id: String, productID: String, phase: Phase, bytesWritten: Int64, totalBytes: Int64,
        bytesPerSecond: Double = 0, secondsRemaining: Double? = nil, error: String? = nil
    ) {
        self.id = id
        self.productID = productID
        self.phase = phase
        self.bytesWritten = bytesWritten
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.secondsRemaining = secondsRemaining
        self.error = error
    }

    /// Done so far, 0…1.
    public var fraction: Double {
        guard totalBytes > 0 else { return phase == .finished ? 1 : 0 }
        return min(1, max(0, Double(bytesWritten) / Double(totalBytes)))
    }

    /// Whether the download may still make progress (waiting, active or paused).
    public var isOpen: Bool { phase == .waiting || phase == .active || phase == .paused }
}
