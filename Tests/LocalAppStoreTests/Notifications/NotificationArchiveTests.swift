import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// The outbox archive (`outbox.dat` and its index): compaction moves settled notifications out
/// of the journal's snapshot, and every reader finds them again exactly — by position, UUID,
/// test token and event key — with resends, a version 4 journal migrated, a lost or damaged
/// index made again and a damaged archive a clear error, never wrong data.
@Suite(.timeLimit(.minutes(10))) struct NotificationArchiveTests {
    typealias H = JournalHistoryTests
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    /// Notification `n`: a test one (with a token) when even, else one with an event key.
    static func made(_ n: Int) -> StoredNotification {
        var made = StoredNotification(
            type: n % 2 == 0 ? .test : .didRenew, subtype: nil, now: epoch.addingTimeInterval(Double(n)),
            accountID: "a",
            transaction: nil, uuid: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!)
        if n % 2 == 0 {
            made.testNotificationToken = made.notificationUUID + "_\(n)"
        } else {
            made.eventKey = "event-\(n)"
        }
        return made
    }

    /// `n` after its attempt: delivered, or given up when `n % 7 == 3`.
    static func settled(_ n: StoredNotification, index: Int) -> StoredNotification {
        var settled = n
        settled.sendAttempts = [
            SendAttemptItem(
                attemptDate: epoch.addingTimeInterval(Double(index) + 0.5),
                sendAttemptResult: index % 7 == 3 ? .timedOut : .success)
        ]
        settled.nextAttemptDate = nil
        settled.signedPayload = "payload-\(index)"
        return settled
    }

    /// Journals `count` notifications after `start`, one write each, and settles each one in the
    /// next write but every tenth (left due).
    static func notify(_ journal: StoreJournal, from start: Int = 0, count: Int) throws -> [StoredNotification] {
        var expected: [StoredNotification] = []
        for index in start..<(start + count) {
            let n = made(index)
            _ = try journal.transact { _ throws(LocalAppStoreError) in
                ([JournalRecord.make(NotificationRecord(notification: n))], ())
            }
            guard index % 10 != 9 else {
                expected.append(n)
                continue
            }
            let done = settled(n, index: index)
            _ = try journal.transact { state throws(LocalAppStoreError) in
                ([JournalRecord.make(state.notifications.record(done))], ())
            }
            expected.append(done)
        }
        return expected
    }

    static func journalLines(_ dir: TemporaryDirectory) throws -> [Substring] {
        try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n")
    }

    @Test func settledNotificationsLeaveTheSnapshotAndAreFoundByPositionUUIDTokenAndEvent() throws {
        let dir = try TemporaryDirectory()
        let journal = try H.open(dir, slack: 8)
        let expected = try Self.notify(journal, count: 200)
        let state = try H.open(dir, slack: 8).state
        let outbox = state.notifications
        #expect(outbox.archive != nil)
        #expect(outbox.archive!.count > 150, "most were archived")
        let lines = try Self.journalLines(dir)
        #expect(lines.count < 40)
        let snapshot = lines.prefix(Int(lines.count)).filter {
            $0.contains(#""kind":"notification""#) && !$0.contains(#""nextAttemptDate""#)
        }
        #expect(snapshot.count <= 9, "no more than the lines since the last compaction hold settled notifications")
        #expect(outbox.count == 200)
        #expect(outbox.ordered == expected)
        #expect(outbox.due == expected.filter { $0.nextAttemptDate != nil })
        for index in [0, 1, 2, 3, 77, 78, 199] {
            let n = expected[index]
            #expect(outbox.notification(at: index) == n)
            #expect(outbox.notification(uuid: n.notificationUUID) == n)
            if let token = n.testNotificationToken { #expect(outbox.testNotification(token: token) == n) }
            if let key = n.eventKey { #expect(outbox.hasNotified(eventKey: key)) }
        }
        #expect(!outbox.hasNotified(eventKey: "event-1000"))
        #expect(outbox.testNotification(token: "nobody's") == nil)
        #expect(outbox.notification(uuid: "nobody") == nil)
        #expect(outbox.notification(at: 200) == nil)
        #expect(outbox.archive?.failure == nil)
    }

    @Test func aResentArchivedNotificationKeepsItsPlaceAndIsArchivedAgainOnceSettled() throws {
        let dir = try TemporaryDirectory()
        let journal = try H.open(dir, slack: 8)
        var expected = try Self.notify(journal, count: 60)
        var resent = expected[4]
        resent.nextAttemptDate = Self.epoch.addingTimeInterval(1000)
        resent.resendRequested = true
        _ = try journal.transact { state throws(LocalAppStoreError) in
            ([JournalRecord.make(state.notifications.record(resent))], ())
        }
        expected[4] = resent
        expected += try Self.notify(journal, from: 60, count: 20)
        var state = try H.open(dir, slack: 8).state
        #expect(state.notifications.ordered == expected)
        #expect(state.notifications.due.first == resent, "due again, and the oldest of the due")
        var delivered = resent
        delivered.sendAttempts.append(
            SendAttemptItem(attemptDate: Self.epoch.addingTimeInterval(1001), sendAttemptResult: .success))
        delivered.nextAttemptDate = nil
        delivered.resendRequested = nil
        _ = try journal.transact { state throws(LocalAppStoreError) in
            ([JournalRecord.make(state.notifications.record(delivered))], ())
        }
        expected[4] = delivered
        expected += try Self.notify(journal, from: 80, count: 20)
        state = try H.open(dir, slack: 8).state
        #expect(state.notifications.ordered == expected)
        #expect(state.notifications.notification(at: 4) == delivered)
        #expect(state.notifications.testNotification(token: delivered.testNotificationToken!) == delivered)
        #expect(!state.notifications.due.contains(delivered))
    }

    @Test func aVersionFourJournalWithItsOutboxInTheSnapshotIsReadAndMigrated() throws {
        let dir = try TemporaryDirectory()
        var legacy = try LegacyJournal(version: 4, settings: LocalStoreSettings())
        var expected: [StoredNotification] = []
        for index in 0..<300 {
            let n = Self.made(index)
            try legacy.append(JournalRecord.make(NotificationRecord(notification: n)))
            let done = index % 10 == 9 ? n : Self.settled(n, index: index)
            if done != n { try legacy.append(JournalRecord.make(NotificationRecord(notification: done))) }
            expected.append(done)
        }
        try legacy.write(to: dir)
        let migrated = try H.open(dir)
        #expect(migrated.state.notifications.ordered == expected)
        #expect(migrated.state.notifications.archive != nil, "compacted on open: the journal was over the slack")
        let reopened = try H.open(dir).state.notifications
        #expect(reopened.ordered == expected)
        #expect(reopened.due == expected.filter { $0.nextAttemptDate != nil })
        #expect(reopened.count == 300)
        #expect(try Self.journalLines(dir).count < 40)
    }

    @Test func aLostOrDamagedOutboxIndexIsMadeAgain() throws {
        let dir = try TemporaryDirectory()
        let expected = try Self.notify(try H.open(dir, slack: 8), count: 60)
        let generations = try FileManager.default.contentsOfDirectory(atPath: dir.stateDirectory.path).compactMap {
            name -> UInt64? in
            name.hasPrefix("outbox-") && name.hasSuffix(".idx") ? UInt64(name.dropFirst(7).dropLast(4)) : nil
        }
        let current = dir.stateDirectory.appendingPathComponent("outbox-\(try #require(generations.max())).idx")
        try H.damageIndex(current, every: 211) { what throws in
            let outbox = try H.open(dir, slack: 8).state.notifications
            #expect(outbox.ordered == expected, "\(what)")
            #expect(outbox.hasNotified(eventKey: "event-1"), "\(what)")
        }
    }

    @Test func aDamagedOutboxIsAClearErrorAndNothingIsDecidedOnIt() throws {
        let dir = try TemporaryDirectory()
        let expected = try Self.notify(try H.open(dir, slack: 8), count: 40)
        let archive = dir.stateDirectory.appendingPathComponent("outbox.dat")
        var bytes = try Data(contentsOf: archive)
        bytes[40] ^= 0x01  // inside the first frame's notification
        try bytes.write(to: archive)
        let reopened = try H.open(dir, slack: 8)
        #expect(reopened.state.notifications.notification(uuid: expected[0].notificationUUID) == nil)
        guard case .corrupt(let path, _, _)? = reopened.state.notifications.archive?.failure else {
            Issue.record("no failure recorded")
            return
        }
        #expect(path == archive.path)
        #expect(throws: LocalAppStoreError.self) {
            _ = try reopened.transact { state throws(LocalAppStoreError) in ([JournalRecord.make(state.settings)], ()) }
        }
    }

    @Test func aCompactionThatFailsLeavesTheOldJournalAndTheNextOneCutsWhatItAppendedToTheOutbox() throws {
        let dir = try TemporaryDirectory()
        var expected = try Self.notify(try H.open(dir, slack: 8), count: 12)
        let archive = dir.stateDirectory.appendingPathComponent("outbox.dat")
        let named = try Data(contentsOf: archive).count
        // The next compaction's second rename (the outbox index's; the history's is the first)
        // fails: the archive got frames no journal names, and the writes still succeed.
        let disk = FaultInjectingFileSystem()
        let failing = try H.open(dir, slack: 8, fileSystem: disk)
        disk.fail(.rename, onCall: 2, with: .ioError)
        var next = 12
        while failing.metrics.failedCompactions == 0, next < 30 {
            expected += try Self.notify(failing, from: next, count: 1)
            next += 1
        }
        #expect(failing.metrics.failedCompactions == 1)
        #expect(try Data(contentsOf: archive).count > named, "frames appended past the archive's end")
        let after = try H.open(dir, slack: 8)
        #expect(after.state.notifications.ordered == expected)
        expected += try Self.notify(after, from: next, count: 30)
        let reopened = try H.open(dir, slack: 8).state.notifications
        #expect(reopened.ordered == expected)
        #expect(reopened.archive.map { Int($0.historyEnd) } == (try Data(contentsOf: archive).count))
    }

    @Test func theStoreAnswersFromTheArchiveResendsFromItAndListsItInPages() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try await store.settings.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
        var tokens: [String] = []
        for _ in 0..<150 {
            tokens.append(try await store.notifications.requestTest())
            guard let n = try await store.notifications.due(by: .distantFuture).due.first else {
                Issue.record("the test notification is not due")
                return
            }
            try await store.notifications.recordAttempt(
                n.notificationUUID, SendAttemptItem(attemptDate: Self.epoch, sendAttemptResult: .success),
                signedPayload: "sent")
        }
        let all = try await store.notifications.all()
        #expect(all.count == 150 && all.allSatisfy(\.isDelivered))
        #expect(
            FileManager.default.fileExists(atPath: dir.stateDirectory.appendingPathComponent("outbox.dat").path),
            "compacted")
        let reopened = try makeStore(dir)
        #expect(try await reopened.notifications.all() == all)
        let snapshot = try await reopened.server.snapshot()
        #expect(snapshot.notificationCount == 150)
        #expect(snapshot.testNotification(token: tokens[2]) == all[2])
        #expect(snapshot.notification(at: 2) == all[2])

        // Pages, newest last, each ending with the cursor of the older ones.
        let newest = try await reopened.notifications.page(newest: 20)
        #expect(
            newest.page.map(\.position) == Array(130..<150) && newest.page.map(\.notification) == Array(all[130...]))
        #expect(newest.older == 130)
        let older = try await reopened.notifications.page(newest: 20, before: 130)
        #expect(older.page.map(\.notification) == Array(all[110..<130]) && older.older == 110)
        let first = try await reopened.notifications.page(newest: 20, before: 5)
        #expect(first.page.map(\.position) == Array(0..<5) && first.older == nil)

        // An archived one sent again: due, in its place, and delivered again.
        let resent = try await reopened.notifications.resend(all[3].notificationUUID)
        #expect(try await reopened.notifications.due().due == [resent])
        try await reopened.notifications.recordAttempt(
            resent.notificationUUID, SendAttemptItem(attemptDate: Self.epoch, sendAttemptResult: .success),
            signedPayload: "sent")
        let after = try await makeStore(dir).notifications.all()
        #expect(after.count == 150)
        #expect(after[3].notificationUUID == all[3].notificationUUID && after[3].sendAttempts.count == 2)
        #expect(Array(after[4...]) == Array(all[4...]))
    }
}
