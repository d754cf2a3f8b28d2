/// A download's durable state, one JSON file per download in `Downloads/records/`, rewritten
/// atomically at every state change; between them, checkpoints are appended to its
/// `CheckpointLog` (format 2), which reading the record applies.
struct DownloadRecord: Codable, Sendable {
    /// A checkpointed stretch of the current file: its length and a SHA-256, so a resume can
    /// prove the partial file still holds exactly the bytes that were made durable. In format 2
    /// the digest is of the file's bytes from the start through the stretch (one running hash
    /// gives them all); in format 1 it was of the stretch alone.
    struct Segment: Codable, Hashable, Sendable {
        var length: Int64
        var sha256: String
    }

    /// The format this build writes.
    static let currentFormat = 2
    /// The formats this build reads.
    static let readableFormats = 1...2

    /// The format version of this record: 2, or 1 for a record an older build wrote (kept
    /// until a resume has re-verified its checkpoints and turned them into format 2).
    var formatVersion = currentFormat
    /// Which checkpoint log entries extend this record: each write of the record takes the
    /// next number, so entries left from an earlier write are ignored (absent in format 1).
    var logGeneration: Int?
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
    /// Other transactions for the same content that joined this download instead of starting
    /// their own (a restore while it was unfinished): each is finished, when it asks to be,
    /// once the content is installed. Absent in records written before joining existed.
    var joined: [JoinedTransaction]?

    /// A transaction that joined a download of its content.
    struct JoinedTransaction: Codable, Hashable, Sendable {
        /// The transaction's ID.
        var transactionID: String
        /// Whether the download finishes it with the store.
        var finishes: Bool
    }

    /// Whether the download is for `transactionID`, its own or joined.
    func covers(_ transactionID: String) -> Bool {
        download.transactionID == transactionID || (joined ?? []).contains { $0.transactionID == transactionID }
    }

    /// A new download of `transaction`'s content, waiting to run.
    static func new(
        _ transaction: Transaction, manifest: ContentManifest, source: DownloadSource, finishesTransaction: Bool,
        sequence: Int
    ) -> DownloadRecord {
        let id = transaction.transactionID
        return DownloadRecord(
            download: Download(
                id: id, transactionID: id, productID: transaction.productID, contentVersion: manifest.version,
                state: .waiting, bytesWritten: 0, totalBytes: manifest.totalBytes),
            manifest: manifest, finishesTransaction: finishesTransaction, source: source, sequence: sequence)
    }

    /// A failed download whose manifest could not be fetched yet (listed and retryable).
    static func withoutManifest(
        _ transaction: Transaction, error: DownloadError, finishesTransaction: Bool, sequence: Int
    ) -> DownloadRecord {
        let id = transaction.transactionID
        return DownloadRecord(
            download: Download(
                id: id, transactionID: id, productID: transaction.productID, contentVersion: "",
                state: .failed, bytesWritten: 0, totalBytes: 0, error: error),
            manifest: ContentManifest(productID: transaction.productID, version: "", files: []),
            finishesTransaction: finishesTransaction, source: .unknown, sequence: sequence, needsManifest: true)
    }

    /// Says whether the download finishes `transactionID` (its own, or a joined one).
    mutating func setFinishes(_ transactionID: String, _ finishes: Bool) {
        if transactionID == download.transactionID {
            finishesTransaction = finishes
        } else if let index = joined?.firstIndex(where: { $0.transactionID == transactionID }) {
            joined?[index].finishes = finishes
        }
    }

    /// Moves on to the next file once the current one (of `size` bytes) is verified and durable.
    mutating func completeFile(size: Int64) {
        fileIndex += 1
        completedBytes += size
        durableOffset = 0
        segments = []
    }

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
