import Foundation
import StoreCore
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// Replays what the archive fuzzer found (`Fuzz/seeds/archive-found/`, over the seed store in
/// `Fuzz/seeds/archive/`; `Fuzz/ArchiveFuzz.swift` says what an input is) and checks what it
/// checks: opening and every lookup answer or fail with an error naming a file of the store,
/// and a read-only store writes nothing.
@Suite(.timeLimit(.minutes(10))) struct ArchiveFuzzRegressionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The seed stores an input's bit 7 picks: journal version 5's, and version 6's.
    static let stores = ["Fuzz/seeds/archive", "Fuzz/seeds/archive-v6"].map(repository.appendingPathComponent)
    static let found = repository.appendingPathComponent("Fuzz/seeds/archive-found")

    /// What replaying one input gave.
    struct Replay {
        var openFailure: LocalAppStoreError?
        var lookupFailure: LocalAppStoreError?
        var written: [String]
        var directory: String
        /// The history's transaction IDs, when it opened.
        var identifiers: [UInt64] = []
    }

    /// The seed store in a temporary directory with the input's file in place (its selector:
    /// bits 0-1 the file, bit 3 read-only, bit 4 the journal's ends, bits 5-6 the index run,
    /// bit 7 the store; bit 2, reseal, needs nothing here: found inputs are stored with their
    /// checks made again), opened and asked everything.
    static func replay(_ input: [UInt8], in dir: TemporaryDirectory) throws -> Replay {
        let selector = input[0]
        let store = stores[Int(selector >> 7)]
        var file = Array(input.dropFirst())
        let state = dir.stateDirectory
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.path)
            .filter { $0 == "journal.jsonl" || $0.hasSuffix(".dat") || $0.hasSuffix(".idx") }
        var journal = try Data(contentsOf: store.appendingPathComponent("journal.jsonl"))
        if selector & 16 != 0 {
            let ends = (file.prefix(16) + [UInt8](repeating: 0, count: max(0, 16 - file.count))).withUnsafeBytes {
                (
                    UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                    UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                )
            }
            file = Array(file.dropFirst(16))
            let newline = try #require(journal.firstIndex(of: UInt8(ascii: "\n")))
            var header = try #require(try JSONSerialization.jsonObject(with: journal[..<newline]) as? [String: Any])
            header["historyEnd"] = NSNumber(value: ends.0)
            header["outboxEnd"] = NSNumber(value: ends.1)
            journal = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]) + journal[newline...]
        }
        let prefix = ["history-", "history.dat", "outbox-", "outbox.dat"][Int(selector & 3)]
        let candidates = names.filter { $0.hasPrefix(prefix) }.sorted {
            (UInt64($0.dropFirst(prefix.count).dropLast(4)) ?? 0)
                < (UInt64($1.dropFirst(prefix.count).dropLast(4)) ?? 0)
        }
        try #require(!candidates.isEmpty)
        let replaced = candidates[Int(selector >> 5 & 3) % candidates.count]
        for name in names {
            let bytes =
                name == replaced
                ? Data(file)
                : name == "journal.jsonl" ? journal : try Data(contentsOf: store.appendingPathComponent(name))
            try bytes.write(to: state.appendingPathComponent(name))
        }
        let readOnly = selector & 8 != 0
        let before = try contents(of: state)
        var replay = Replay(written: [], directory: state.path)
        do {
            let opened = try StoreJournal(
                directory: state.path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(),
                syncsWrites: false, readOnly: readOnly)
            if let history = opened.state.history {
                replay.identifiers = history.identifiers()
                _ = history.entries()
                _ = history.finishedDigest(accountID: StoreAccount.localTester.id)
                _ = try? history.frames(from: UInt64(JournalHistory.headerLength))
            }
            if let outbox = opened.state.notifications.archive {
                _ = outbox.items()
                _ = outbox.notification(uuid: "nobody")
                _ = try? outbox.frames(from: UInt64(NotificationArchive.headerLength))
            }
            replay.lookupFailure = opened.state.history?.failure ?? opened.state.notifications.archive?.failure
        } catch {
            replay.openFailure = error
        }
        if readOnly {
            let after = try contents(of: state)
            replay.written = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }.sorted()
        }
        return replay
    }

    static func contents(of directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name != "store.lock" {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    static func input(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: found.appendingPathComponent(name)))
    }

    @Test func everyFoundInputAnswersOrNamesAFileOfTheStore() throws {
        let inputs = try FileManager.default.contentsOfDirectory(atPath: Self.found.path).filter {
            !$0.hasSuffix(".md")
        }.sorted()
        #expect(!inputs.isEmpty)
        for name in inputs {
            let dir = try TemporaryDirectory()
            let replay = try Self.replay(try Self.input(name), in: dir)
            for failure in [replay.openFailure, replay.lookupFailure].compactMap({ $0 }) {
                #expect("\(failure)".contains(replay.directory), "\(name): \(failure)")
            }
            #expect(replay.written.isEmpty, "\(name): a read-only store wrote \(replay.written)")
        }
    }

    /// Found on the first run: a read-only store met a damaged page of the outbox index and made
    /// the index again, writing `outbox-G.idx` (its lookups rebuilt whatever the store's mode).
    @Test func aReadOnlyStoreWithADamagedIndexPageWritesNothingAndNamesTheIndex() throws {
        let dir = try TemporaryDirectory()
        let replay = try Self.replay(try Self.input("read-only-outbox-index-page.bin"), in: dir)
        #expect(replay.written.isEmpty)
        let failure = try #require(replay.lookupFailure)
        guard case .corrupt(let path, _, let reason) = failure else {
            Issue.record("\(failure)")
            return
        }
        #expect(path.hasSuffix(".idx") && path.contains("/outbox-"), "\(path)")
        #expect(reason.contains("fails its check") && reason.contains("read-only"), "\(reason)")
    }

    /// Review of the readers, confirmed on the fuzz build: a journal whose header names an
    /// archive end past `Int.max` trapped converting it (`rebuildIndex`: the index's end no
    /// longer matches, so it is made again from that many bytes); one past the file's end asked
    /// for that much memory (1 TiB here: AddressSanitizer refused it). Now a clear error.
    @Test(arguments: ["ends-history-end-past-int-max.bin", "ends-history-end-past-the-file.bin"])
    func aJournalNamingAnArchiveEndPastTheFileIsAClearError(_ name: String) throws {
        let dir = try TemporaryDirectory()
        let replay = try Self.replay(try Self.input(name), in: dir)
        let failure = try #require(replay.openFailure)
        guard case .corrupt(let path, _, let reason) = failure else {
            Issue.record("\(failure)")
            return
        }
        #expect(path.hasSuffix("/history.dat"), "\(path)")
        #expect(reason.contains("the journal names") && reason.contains("which holds 147276"), "\(reason)")
    }

    /// An index entry (its page resealed, as a consistent damage would be) naming an offset
    /// near `UInt64.max`: checking the frame's bounds overflowed (`entry.value + 12 + length`).
    @Test func anIndexEntryNamingAnOffsetPastTheEndIsAClearError() throws {
        let dir = try TemporaryDirectory()
        let replay = try Self.replay(try Self.input("index-entry-offset-overflows.bin"), in: dir)
        #expect(replay.openFailure == nil)
        let failure = try #require(replay.lookupFailure)
        guard case .corrupt(let path, _, let reason) = failure else {
            Issue.record("\(failure)")
            return
        }
        #expect(path.hasSuffix("/history.dat"), "\(path)")
        #expect(reason.contains("outside the archive"), "\(reason)")
    }

    /// An index header claiming 2^24 pages in each table: opening read 512 MiB of "first keys"
    /// before checking anything (an allocation sized by the file's claim). Now the file's size
    /// bounds it, the index counts as damaged and is made again from the history.
    @Test func anIndexHeaderClaimingHugeTablesIsMadeAgainFromTheHistory() throws {
        let dir = try TemporaryDirectory()
        let replay = try Self.replay(try Self.input("index-header-claims-huge-tables.bin"), in: dir)
        #expect(replay.openFailure == nil)
        #expect(replay.lookupFailure == nil)
        #expect(replay.identifiers.count == 300)
    }
}
