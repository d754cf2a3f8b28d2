/// The checkpoints of a running download between two writes of its record: an append-only
/// text file beside it, `Downloads/records/ID.checkpoints`, one line per entry (format 1):
///
///     c1 GENERATION FILE END SHA256    the file's first END bytes are durable; SHA256 is theirs
///     f1 GENERATION FILE               the file is complete, verified and durable
///
/// An entry is appended only after what it names is durable, and the log itself is never
/// synced: losing its tail in a power loss only means resuming from an earlier checkpoint. A
/// line that is not whole and well-formed (a torn or zero-filled tail) is ignored, as is an
/// entry of another generation than the record's (left from before the record's last write),
/// and applying stops at the first entry that does not follow from the record.
enum CheckpointLog {
    /// One line of the log.
    enum Entry: Equatable, Sendable {
        /// File `file`'s first `end` bytes are durable and their SHA-256 is `sha256`.
        case checkpoint(generation: Int, file: Int, end: Int64, sha256: String)
        /// File `file` is complete, verified and durable.
        case fileComplete(generation: Int, file: Int)
    }

    /// The line for `entry`, newline included.
    static func line(_ entry: Entry) -> [UInt8] {
        switch entry {
        case .checkpoint(let generation, let file, let end, let sha256):
            Array("c1 \(generation) \(file) \(end) \(sha256)\n".utf8)
        case .fileComplete(let generation, let file):
            Array("f1 \(generation) \(file)\n".utf8)
        }
    }

    /// The well-formed entries in `bytes`, in order (malformed lines left out).
    static func entries(in bytes: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            if let entry = parse(bytes[start..<index]) { entries.append(entry) }
            start = index + 1
        }
        // Bytes after the last newline are a line that was never finished: ignored.
        return entries
    }

    /// Applies the entries of the record's generation that follow from it, in order.
    /// - Returns: whether any entry was applied.
    @discardableResult
    static func apply(_ entries: [Entry], to record: inout DownloadRecord) -> Bool {
        guard record.formatVersion == DownloadRecord.currentFormat, let generation = record.logGeneration else {
            return false
        }
        var applied = false
        for entry in entries {
            switch entry {
            case .checkpoint(generation, let file, let end, let sha256):
                guard file == record.fileIndex, file < record.manifest.files.count,
                    end > record.durableOffset, end <= record.manifest.files[file].size
                else { return applied }
                record.segments.append(DownloadRecord.Segment(length: end - record.durableOffset, sha256: sha256))
                record.durableOffset = end
            case .fileComplete(generation, let file):
                guard file == record.fileIndex, file < record.manifest.files.count else { return applied }
                record.completeFile(size: record.manifest.files[file].size)
            default:
                continue
            }
            applied = true
            record.download.bytesWritten = record.completedBytes + record.durableOffset
        }
        return applied
    }

    private static func parse(_ line: ArraySlice<UInt8>) -> Entry? {
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard let tag = fields.first, let generation = fields.count > 1 ? number(fields[1]) : nil,
            let file = fields.count > 2 ? number(fields[2]) : nil
        else { return nil }
        switch (tag, fields.count) {
        case ("c1", 5):
            guard let end = number(fields[3]), end > 0, isDigest(fields[4]) else { return nil }
            return .checkpoint(generation: generation, file: file, end: Int64(end), sha256: fields[4])
        case ("f1", 3):
            return .fileComplete(generation: generation, file: file)
        default:
            return nil
        }
    }

    /// A decimal number of at most 18 digits (no sign, no leading `+`).
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }

    private static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
