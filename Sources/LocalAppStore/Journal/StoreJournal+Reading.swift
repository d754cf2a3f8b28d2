import Catalog
import Foundation
internal import SystemIO

/// Reading the journal: the lines other processes appended, across compactions (the rest of
/// the old file, then the new one; or, after missed ones, what differs), and each file's header.
extension StoreJournal {
    /// The inode the journal's path names now; `nil` when there is no journal.
    func currentInode() throws(LocalAppStoreError) -> UInt64? {
        try io { () throws(SystemCallError) in try fs.status(atPath: journalPath, followingLinks: true)?.inode }
    }

    /// Opens the journal (after a start or a compaction) for appending.
    func openJournal() throws(LocalAppStoreError) -> (file: OpenFile, inode: UInt64) {
        try io { () throws(SystemCallError) in
            let file = try fs.open(journalPath, readOnly ? .read : [.readWrite, .create, .append])
            do throws(SystemCallError) {
                return (file, try fs.status(of: file).inode)
            } catch {
                fs.close(file)
                throw error
            }
        }
    }

    /// Applies every complete new line; when compaction replaced the journal, first the rest
    /// of the old file (so what changed in it is reported entry by entry), then the new one.
    /// A reader that missed compactions (it last read an older file than the one the new
    /// file replaced) reports every entry that differs from what it knew: the frames those
    /// compactions appended to `history.dat` and the new file's entries.
    func readNewRecords(cutTornTail: Bool) throws(LocalAppStoreError) -> [QueueEntry] {
        guard let current = try currentInode() else {
            // Read-only over a directory with no journal yet: nothing to read.
            if readOnly && file == nil { return [] }
            throw .io(path: journalPath, reason: "the journal disappeared (was the state directory removed?)")
        }
        var changed: [QueueEntry] = []
        var replaced: (generation: UInt64, state: JournalState)? = nil
        if let old = file, current != inode {
            changed += try readLines(of: old, cutTornTail: false, reporting: true)
            // The compaction that replaced the file may not have synced its rename yet, and a
            // power loss would leave the old file: what was read from it is made durable there.
            try makeReadDurable()
            fs.close(old)
            file = nil
            replaced = (generation, state)
        }
        if file == nil {
            let opened = try openJournal()
            file = opened.file
            inode = opened.inode
            offset = 0
            settledOffset = 0
            lineCount = 0
            snapshotLines = 0
            generation = 0
            state = JournalState(settings: state.settings)
        }
        guard let file else { return Self.lastVersions(changed) }
        // After a compaction of the file just finished, its snapshot is the state already
        // read: only the lines after it are news. After missed ones, see below.
        let fresh = try readLines(
            of: file, cutTornTail: cutTornTail, reporting: true, quietSnapshotAfter: replaced?.generation)
        if let replaced, generation != replaced.generation + 1 {
            changed += try missed(since: replaced.state, newFileEntries: fresh)
        } else {
            changed += fresh
        }
        if replaced != nil { revision += 1 }
        return Self.lastVersions(changed)
    }

    /// What changed since `before` (the state of the last file read, read to its end) when
    /// the compactions in between were missed: each entry they moved to the history or the
    /// new file holds, in its current version, unless `before` had that version already.
    func missed(since before: JournalState, newFileEntries: [QueueEntry]) throws(LocalAppStoreError) -> [QueueEntry] {
        var candidates: [QueueEntry] = []
        if let history = state.history {
            let start = before.history?.historyEnd ?? UInt64(JournalHistory.headerLength)
            do {
                candidates = try history.frames(from: start).map { state.entries[$0.id] ?? $0 }
            } catch let error as LocalAppStoreError {
                throw error
            } catch {
                throw .io(path: historyPath, reason: "\(error)")
            }
        }
        candidates += newFileEntries
        return Self.lastVersions(candidates).filter { before.entries[$0.id] != $0 }
    }

    /// Applies the complete lines of `file` past `offset`.
    /// - Parameters:
    ///   - reporting: collect the entries the lines change.
    ///   - quietSnapshotAfter: when the file is the compaction of this generation, its
    ///     snapshot lines are not reported.
    func readLines(
        of file: OpenFile, cutTornTail: Bool, reporting: Bool, quietSnapshotAfter previous: UInt64? = nil
    ) throws(LocalAppStoreError) -> [QueueEntry] {
        let bytes = try io { () throws(SystemCallError) in try fs.readToEnd(file, from: UInt64(offset)) }
        var changed: [QueueEntry] = []
        // A change's records apply together once its last one is read (`JournalRecord.more`);
        // `committed` ends after the last complete change, and only that far is read.
        var pending: [(record: JournalRecord, line: Int)] = []
        var lines = 0
        var committedLines = 0
        var committed = 0
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                lines += 1
                if index > lineStart {
                    let record = try decode(bytes[lineStart..<index], line: lineCount + lines)
                    if lineCount + lines == 1 { try startFile(with: record) }
                    pending.append((record, lineCount + lines))
                }
                if pending.last?.record.more != true {
                    if !pending.isEmpty { published.withdraw() }
                    for (record, number) in pending {
                        let quiet = previous.map { generation == $0 + 1 && number <= snapshotLines } ?? false
                        if let entry = state.apply(record), reporting, !quiet { changed.append(entry) }
                    }
                    pending.removeAll()
                    committed = index + 1
                    committedLines = lines
                }
                lineStart = index + 1
            }
            index += 1
        }
        lineCount += committedLines
        offset += Int64(committed)
        if committed > 0 { revision += 1 }
        if cutTornTail && committed < bytes.count {
            // Only a writer holding the lock gets here, so nobody is appending: the bytes
            // after the last complete change are a crashed writer's torn change.
            try io { () throws(SystemCallError) in try fs.truncate(file, to: UInt64(offset)) }
        }
        _ = try checked(())
        return changed
    }

    /// Checks a file's header and opens the history and the outbox archive it names.
    func startFile(with record: JournalRecord) throws(LocalAppStoreError) {
        guard record.kind == .header, record.format == JournalRecord.formatName else {
            throw .corrupt(
                path: journalPath, line: 1, reason: "the first line is not a \(JournalRecord.formatName) header")
        }
        guard let version = record.version, version <= JournalRecord.currentVersion else {
            throw .corrupt(
                path: journalPath, line: 1,
                reason:
                    "journal version \(record.version.map(String.init) ?? "missing") is newer than this build reads (\(JournalRecord.currentVersion))"
            )
        }
        generation = record.generation ?? 0
        snapshotLines = record.snapshotLines ?? 0
        let history = try record.historyIndexRuns.map { (runs) throws(LocalAppStoreError) in
            try openHistory(runs: runs, historyEnd: record.historyEnd ?? 0)
        }
        let outbox = try record.outboxIndexRuns.map { (runs) throws(LocalAppStoreError) in
            try openOutbox(runs: runs, end: record.outboxEnd ?? 0)
        }
        state = JournalState(settings: state.settings, history: history, outbox: outbox)
    }

    /// Reads one line as a record, through the catalog's tape parser: Foundation's `JSONDecoder`
    /// looked up protocol conformances on its first use of each of the records' types, the
    /// largest part of a short command's start (Docs/decisions/0092-the-journal-reads-through-the-tape-parser.md).
    func decode(_ line: ArraySlice<UInt8>, line number: Int) throws(LocalAppStoreError) -> JournalRecord {
        do throws(JSONTapeDecoder.Failure) {
            return try JSONTapeDecoder.decode(
                JournalRecord.self, from: line, maximumStringBytes: JournalRecord.maximumStringBytes)
        } catch {
            throw .corrupt(path: journalPath, line: number, reason: "not a journal record: \(error)")
        }
    }

    /// Keeps the last version of each entry, in the order of their last change.
    static func lastVersions(_ entries: [QueueEntry]) -> [QueueEntry] {
        guard entries.count > 1 else { return entries }
        var seen = Set<String>()
        var result: [QueueEntry] = []
        for entry in entries.reversed() where seen.insert(entry.id).inserted {
            result.append(entry)
        }
        return result.reversed()
    }
}
