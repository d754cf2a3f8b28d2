import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// Group commit's crash states (Docs/decisions/0141-group-commit-and-durable-reads.md): a
/// writer lets the journal's lock go before it syncs, so another process can read, or append
/// after, a line that is not durable yet. Two journals on one directory stand for two
/// processes; the window between a write and its sync is opened on purpose (the other one acts
/// just before the writer's `fdatasync`), and every state a power loss could leave there
/// (`CrashStateGenerator`, ordered and reordering) is reopened. Each must hold every entry a
/// journal handed out (a reader's news, a writer's return: what a process announces, notifies
/// or answers with), whole and as written, and nothing that was never written.
@Suite(.timeLimit(.minutes(10))) struct GroupCommitCrashTests {
    typealias H = JournalHistoryTests

    /// The other process's journal and what it got, for the hook that runs inside the
    /// writer's sync (on the writer's thread, while the writer waits).
    final class Other: @unchecked Sendable {
        let journal: StoreJournal
        var got: [QueueEntry] = []
        init(_ journal: StoreJournal) { self.journal = journal }
    }

    /// Journals one purchase (synced or not) and marks every entry the write handed out: the
    /// other processes' lines it read first, and its own when synced (an unsynced one may be
    /// lost by design).
    @discardableResult
    static func buy(_ journal: StoreJournal, sync: Bool, recorder: RecordingFileSystem) throws -> QueueEntry {
        let (entry, changed) = try journal.transact(sync: sync) { state throws(LocalAppStoreError) in
            let entry = H.entry(state.allocateTransactionID())
            return ([JournalRecord.make(entry)], entry)
        }
        for handed in changed where sync || handed.id != entry.id {
            recorder.mark("handed out \(handed.id)")
        }
        return entry
    }

    /// A directory with a journal (durable, before the recording) and a recorder over it.
    static func start() throws -> (TemporaryDirectory, RecordingFileSystem) {
        let dir = try TemporaryDirectory()
        _ = try H.open(dir)
        return (dir, try RecordingFileSystem(root: dir.stateDirectory.path))
    }

    @Test func aReaderWokenBeforeTheWritersSyncHandsOutOnlyWhatIsDurable() throws {
        let (dir, recorder) = try Self.start()
        let writerDisk = FaultInjectingFileSystem(wrapping: recorder)
        let writer = try H.open(dir, fileSystem: writerDisk)
        let reader = Other(try H.open(dir, fileSystem: recorder))
        writerDisk.beforeNextSynchronize {
            // Woken by the append, as a file-change notification wakes `serve` (before the
            // writer's sync returns): the reader reads the charge and would notify it.
            reader.got = (try? reader.journal.refresh()) ?? []
            for entry in reader.got { recorder.mark("handed out \(entry.id)") }
        }
        let bought = try Self.buy(writer, sync: true, recorder: recorder)
        #expect(reader.got.map(\.id) == [bought.id], "the reader read the line in the window")
        try Self.judge(try recorder.finish(), written: [bought], directory: dir)
    }

    @Test(arguments: [true, false])
    func twoWritersAppendsSyncedByTheSecondAreWholeAndKept(secondSyncs: Bool) throws {
        let (dir, recorder) = try Self.start()
        let firstDisk = FaultInjectingFileSystem(wrapping: recorder)
        let first = try H.open(dir, fileSystem: firstDisk)
        let second = Other(try H.open(dir, fileSystem: recorder))
        firstDisk.beforeNextSynchronize {
            // The first writer appended and let the lock go; the second takes it, reads that
            // line, appends after it and syncs (a queued purchase, unsynced itself, still
            // syncs before it hands the first one's charge out).
            if let entry = try? Self.buy(second.journal, sync: secondSyncs, recorder: recorder) {
                second.got = [entry]
            }
        }
        let bought = try Self.buy(first, sync: true, recorder: recorder)
        let other = try #require(second.got.first, "the second writer wrote in the window")
        let recording = try recorder.finish()
        let firstWrite = try #require(recording.operations.firstIndex { if case .write = $0 { true } else { false } })
        let syncs = recording.operations[firstWrite...].filter { if case .synchronize = $0 { true } else { false } }
        #expect(syncs.count == 2, "one sync each after the appends: the second's covers both")
        try Self.judge(recording, written: [bought, other], directory: dir)
    }

    /// Reopens every crash state of `recording` and checks it (see the suite's summary).
    static func judge(_ recording: Recording, written: [QueueEntry], directory: TemporaryDirectory) throws {
        let states = try TemporaryDirectory(prefix: "sf-group-commit-states")
        var explored = 0
        var integrityErrors = 0
        var failures: [String] = []
        // A state is the image and what was handed out before the crash: the same bytes after
        // a mark are another state than before it.
        var seen: Set<[UInt8]> = []
        for mode in CrashStateGenerator.Mode.allCases {
            for state in CrashStateGenerator(recording).states(mode) {
                let image = state.image(of: recording)
                let handed = Set(
                    recording.operations.prefix(state.crashPoint).compactMap { operation -> String? in
                        guard case .mark(let label) = operation else { return nil }
                        return label.hasPrefix("handed out ") ? String(label.dropFirst("handed out ".count)) : nil
                    })
                guard seen.insert(try image.digest() + handed.sorted().joined(separator: ",").utf8).inserted else {
                    continue
                }
                explored += 1
                let place = states.url.appendingPathComponent("\(mode.rawValue)-\(explored)", isDirectory: true)
                try FileManager.default.createDirectory(at: place, withIntermediateDirectories: false)
                try image.materialize(at: place)
                let name = "[\(mode.rawValue)] \(state.summary(of: recording))"
                do {
                    let reopened = try StoreJournal(
                        directory: place.path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(),
                        readOnly: true)
                    let found = reopened.state.orderedEntries
                    for id in handed where !found.contains(where: { $0.id == id }) {
                        failures.append("\(name): \(id) was handed out and is lost")
                    }
                    for entry in found where !written.contains(entry) {
                        failures.append("\(name): \(entry.id) is not an entry as written")
                    }
                } catch .corrupt(let path, _, _) where mode == .reordering && path.hasSuffix("/journal.jsonl") {
                    // A later line durable before an earlier one (only disks that reorder
                    // writes between syncs do that), named as damage: the clear integrity error
                    // the power-loss explorer allows too, never a silent loss.
                    integrityErrors += 1
                } catch {
                    failures.append("\(name): the journal does not open: \(error)")
                }
            }
        }
        print(
            "group commit: \(recording.operations.count) operations, \(explored) crash states reopened, "
                + "\(integrityErrors) (reordering) a clear integrity error")
        #expect(explored > 10)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
