import Foundation
import StoreCore
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// A store as the build of journal version 5 left it (`Fixtures/journal-v5`, PROVENANCE.md:
/// one index of each whole archive, `history-2.idx` and `outbox-2.idx`, at index version 2)
/// answers what that build answered (`Fixtures/journal-v5.expected.json`), read-only and
/// writable, and its first compaction carries it forward to version 6, its old indexes kept as
/// the first run of each archive, with every answer unchanged and the new purchases added.
@Suite(.timeLimit(.minutes(5))) struct JournalVersionFiveTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")
    static let store = fixtures.appendingPathComponent("journal-v5")

    /// What the fixture's writer answered about it (made with it; see PROVENANCE.md).
    struct Answers: Codable, Equatable {
        var entries: [QueueEntry]
        var unfinished: [String]
        var order: [String]
        var subscriptions: [StoredSubscription]
        var server: [ServerRecord]
        var storeKit: [StoreKitRecord]
        var notifications: [StoredNotification]
        var due: [String]
        var nextTransactionID: UInt64
        var finishedCount: Int
        var finishedSum: UInt64

        init(_ state: JournalState) {
            let order = state.order
            let digest = state.finishedDigest(accountID: StoreAccount.localTester.id)
            entries = state.orderedEntries
            unfinished = state.unfinishedEntries.map(\.id)
            self.order = (0..<order.count).map { order[$0] }
            subscriptions = state.orderedSubscriptions
            server = state.server.snapshot
            storeKit = state.storeKit.snapshot
            notifications = state.notifications.ordered
            due = state.notifications.due.map(\.notificationUUID)
            nextTransactionID = state.nextTransactionID
            finishedCount = digest.count
            finishedSum = digest.sum
        }
    }

    static func expected() throws -> Answers {
        try JSONDecoder().decode(
            Answers.self, from: Data(contentsOf: fixtures.appendingPathComponent("journal-v5.expected.json")))
    }

    /// The fixture's files in a fresh state directory.
    static func copy() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.stateDirectory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: store.path) where !name.hasSuffix(".md") {
            try FileManager.default.copyItem(
                at: store.appendingPathComponent(name), to: dir.stateDirectory.appendingPathComponent(name))
        }
        return dir
    }

    static func header(_ dir: TemporaryDirectory) throws -> JournalRecord {
        let line = try Data(contentsOf: dir.journal).split(separator: UInt8(ascii: "\n"))[0]
        return try JSONDecoder().decode(JournalRecord.self, from: Data(line))
    }

    @Test func itAnswersAsTheBuildThatWroteItReadOnlyAndWritable() throws {
        let expected = try Self.expected()
        #expect(expected.entries.count == 150 && expected.notifications.count == 52, "the fixture's answers")
        let dir = try Self.copy()
        let before = try ArchiveFuzzRegressionTests.contents(of: dir.stateDirectory)
        let readOnly = try StoreJournal(
            directory: dir.stateDirectory.path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(),
            readOnly: true)
        #expect(Answers(readOnly.state) == expected)
        #expect(readOnly.state.history?.failure == nil && readOnly.state.notifications.archive?.failure == nil)
        #expect(try ArchiveFuzzRegressionTests.contents(of: dir.stateDirectory) == before, "read-only wrote nothing")

        let writable = try JournalHistoryTests.open(dir)
        #expect(Answers(writable.state) == expected)
        #expect(try Self.header(dir).version == 5, "under the compaction slack: not rewritten yet")
    }

    @Test func itsFirstCompactionCarriesItForwardToVersionSix() throws {
        let expected = try Self.expected()
        let dir = try Self.copy()
        // A slack below the fixture's 46 lines past its snapshot: the open compacts it.
        let journal = try JournalHistoryTests.open(dir, slack: 8)
        let header = try Self.header(dir)
        #expect(header.version == JournalRecord.currentVersion)
        #expect(header.generation == 3)
        let historyRuns = try #require(header.historyRuns)
        #expect(historyRuns.first == ArchiveRun(generation: 2, start: 16), "the old index is the first run")
        #expect(try #require(header.outboxRuns).first == ArchiveRun(generation: 2, start: 16))
        let oldIndex = dir.stateDirectory.appendingPathComponent("history-2.idx")
        #expect(try Data(contentsOf: oldIndex)[8] == 2, "the version 2 index is read as it is, not made again")
        #expect(Answers(journal.state) == expected)

        // Purchases after it: compactions add runs (or merge them), the old answers stay.
        let made = try JournalHistoryTests.purchase(journal, count: 60)
        let reopened = try JournalHistoryTests.open(dir, slack: 8)
        let after = Answers(reopened.state)
        #expect(after.entries == expected.entries + made)
        #expect(after.order == expected.order + made.map(\.id))
        #expect(after.notifications == expected.notifications)
        #expect(after.server == expected.server && after.subscriptions == expected.subscriptions)
        #expect(after.unfinished == expected.unfinished)
        #expect(reopened.state.history?.failure == nil)
        #expect(try #require(Self.header(dir).historyRuns).count > 1)
    }
}
