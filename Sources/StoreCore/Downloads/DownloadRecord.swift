/// A download's durable state, one JSON file per download in `Downloads/records/`, rewritten
/// atomically at every checkpoint and state change.
struct DownloadRecord: Codable, Sendable {
    /// A checkpointed stretch of the current file: its length and SHA-256, so a resume can
    /// prove the partial file still holds exactly the bytes that were made durable.
    struct Segment: Codable, Hashable, Sendable {
        var length: Int64
        var sha256: String
    }

    /// The format version of this record.
    var formatVersion = 1
    var download: Download
    var manifest: ContentManifest
    /// Whether the engine left finishing the transaction to the download.
    var finishesTransaction: Bool
    /// Where the content comes from.
    var source: DownloadSource
    /// The file being downloaded; files before it are complete and verified.
    var fileIndex = 0
    /// Bytes of complete files.
    var completedBytes: Int64 = 0
    /// The durable length of the current file's partial bytes.
    var durableOffset: Int64 = 0
    /// The current file's checkpointed segments, adding up to `durableOffset`.
    var segments: [Segment] = []
    /// Order of creation, for listing and scheduling.
    var sequence: Int = 0
    /// Set when the manifest could not be fetched yet (`manifest` is then empty): the next
    /// attempt asks for it first.
    var needsManifest: Bool?

    /// Forgets every partial byte (after a cancel or a corrupt partial).
    mutating func resetProgress() {
        fileIndex = 0
        completedBytes = 0
        durableOffset = 0
        segments = []
        download.bytesWritten = 0
        download.bytesPerSecond = 0
    }
}
