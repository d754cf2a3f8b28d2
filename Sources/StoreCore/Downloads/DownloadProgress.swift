import Foundation

/// The progress of running downloads: each one's rate over the last seconds of the clock,
/// and whether a change is worth an event (every 1/200 of the content, at least 64 KiB).
struct DownloadProgress {
    private var meters: [String: RateMeter] = [:]
    private var lastReported: [String: Int64] = [:]

    /// Starts measuring download `id` afresh.
    mutating func start(_ id: String) {
        meters[id] = RateMeter()
        lastReported[id] = nil
    }

    /// Notes the record's bytes written at `now` and sets its rate.
    /// - Returns: whether to send a `downloadUpdated` event for it.
    mutating func note(_ record: inout DownloadRecord, at now: Date) -> Bool {
        let id = record.download.id
        let written = record.download.bytesWritten
        meters[id, default: RateMeter()].record(written, at: now)
        record.download.bytesPerSecond = meters[id]?.bytesPerSecond ?? 0
        let step = max(Int64(1 << 16), record.download.totalBytes / 200)
        if let last = lastReported[id], written - last < step, written < record.download.totalBytes { return false }
        lastReported[id] = written
        return true
    }
}
