import Foundation
import LocalAppStore
import TestSupport
import Testing

/// The notification outbox's crash states (issue 18 item 2 with issue 15 item 4): an event's
/// notification is journaled in the event's own durable write, and a sender (the lease, the
/// signed payload, the attempt, as `NotificationSender` makes them; the POST itself touches no
/// disk) records its attempts, which are journaled without their own fsync and made durable by
/// the next synced write (a later event, or the resend that retries a failed one now). Every state reopened must keep: each durable charge has exactly one
/// notification and each notification its durable charge; a notification the app saw keeps its
/// `notificationUUID`; attempts are the ones made, in order, never twice, none lost once a
/// later write synced them; one not delivered is still due.
extension PowerLossTests {
    /// `buyPro`, then in the app's next run `notification-url` set and `body`.
    static func buyProThenNotify(
        _ context: CrashScenario.Context, _ body: (AppSession) async throws -> Void = { _ in }
    ) async throws {
        try await buyPro(context)
        try await AppSession.with(context.data, catalog: context.catalog, clock: context.clock) { session in
            try await session.backend.settings.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
            try await body(session)
        }
    }

    /// The results the scenario's sender gets, by event (1, 2, 3), in order.
    static let plannedResults: [[SendAttemptResult]] = [
        [.success], [.timedOut, .success], [.unsuccessfulHTTPResponseCode],
    ]

    @Test func notificationOutboxWriteAndSend() async throws {
        try await Self.run(
            CrashScenario(
                name: "notification outbox write and send",
                setup: { context in try await Self.buyProThenNotify(context) },
                operation: { context, recorder in
                    try await Self.app(context, recorder) { session in
                        let backend = session.backend
                        guard
                            let lease = try NotificationSenderLease.take(
                                stateDirectory: backend.configuration.stateDirectory, fileSystem: recorder)
                        else { throw SessionError("the sender's lease is taken") }
                        defer { lease.release() }
                        var made: [StoredNotification] = []
                        for (event, results) in Self.plannedResults.enumerated() {
                            // The event, and its notification in the same write (synced: it also
                            // makes the previous event's attempts durable).
                            let coins = try await session.buy(CrashCatalog.coins, quantity: event + 1)
                            guard
                                let n = try await backend.notifications.all().first(where: {
                                    $0.transaction?.transactionID == coins.transactionID
                                })
                            else { throw SessionError("no notification for \(coins.transactionID)") }
                            recorder.mark(Marks.notified(n.notificationUUID, coins.transactionID))
                            for (j, earlier) in made.enumerated() {
                                recorder.mark(Marks.synced(earlier.notificationUUID, Self.plannedResults[j].count))
                            }
                            made.append(n)
                            // The sender's turn: each attempt begins (mark), is answered, is journaled.
                            for (index, result) in results.enumerated() {
                                guard
                                    let due = try await backend.notifications.due().due.first(where: {
                                        $0.notificationUUID == n.notificationUUID
                                    })
                                else { throw SessionError("\(n.notificationUUID) is not due for attempt \(index + 1)") }
                                var payload = due.signedPayload
                                if payload == nil { payload = try await backend.notifications.signedPayload(of: due) }
                                recorder.mark(Marks.sending(n.notificationUUID, index + 1, result))
                                try await backend.notifications.recordAttempt(
                                    n.notificationUUID,
                                    SendAttemptItem(attemptDate: context.clock.now, sendAttemptResult: result),
                                    signedPayload: payload ?? "")
                                guard result != .success else { continue }
                                // Retried now rather than on Apple's schedule (the clock stays where
                                // the states are reopened); the resend's write is synced.
                                try await backend.notifications.resend(n.notificationUUID)
                                recorder.mark(Marks.synced(n.notificationUUID, index + 1))
                            }
                        }
                        recorder.mark(Marks.acknowledged)
                    }
                },
                expectations: { state in Self.judgeOutbox(state) }),
            recordingMust: { recording in
                recording.operations.contains {
                    if case .mark(let label) = $0 { label.hasPrefix("synced ") } else { false }
                }
            })
    }

    /// The outbox's rules for one recovered state (see the extension's summary).
    static func judgeOutbox(_ state: CrashScenario.Judgement) -> [String] {
        var failures: [String] = []
        let facts = state.facts
        let charged = Set(facts.charged).subtracting(state.baseline.charged)
        let byTransaction = Dictionary(
            grouping: facts.notifications.filter { $0.transactionID != nil }, by: { $0.transactionID ?? "" })
        for id in charged {
            let made = byTransaction[id] ?? []
            if made.map(\.kind) != ["ONE_TIME_CHARGE"] {
                failures.append("charge \(id) has notifications \(made.map(\.kind)), not one ONE_TIME_CHARGE")
            }
        }
        for n in facts.notifications where !charged.contains(n.transactionID ?? "") {
            failures.append(
                "notification \(n.uuid) (\(n.kind)) is about \(n.transactionID ?? "nothing"), which the store did not charge"
            )
        }
        let outbox = Dictionary(facts.notifications.map { ($0.uuid, $0) }, uniquingKeysWith: { a, _ in a })
        for mark in state.marks {
            let words = mark.split(separator: " ").map(String.init)
            switch words.first {
            case "notified":
                // notified UUID TRANSACTION: the app saw this UUID for the charge.
                if byTransaction[words[2]]?.map(\.uuid) != [words[1]] {
                    failures.append(
                        "charge \(words[2]) was notified as \(words[1]) and now has \(byTransaction[words[2]]?.map(\.uuid) ?? [])"
                    )
                }
            case "synced":
                // synced UUID N: N attempts were journaled before a synced write.
                let count = outbox[words[1]]?.attempts.count ?? 0
                if count < Int(words[2]) ?? 0 {
                    failures.append("\(words[1]): \(count) attempts after \(words[2]) were synced")
                }
            default:
                break
            }
        }
        for n in facts.notifications {
            // The attempts must be the ones begun before the crash, in order, none twice.
            let begun = (1...4).compactMap { index in
                state.marks.first { $0.hasPrefix("sending \(n.uuid) \(index) ") }?.split(separator: " ").last.map(
                    String.init)
            }
            if n.attempts.count > begun.count || Array(begun.prefix(n.attempts.count)) != n.attempts {
                failures.append("\(n.uuid): attempts \(n.attempts), but those begun were \(begun)")
            }
            if !n.delivered && !n.due {
                failures.append("\(n.uuid) is neither delivered nor due: it would never be sent")
            }
        }
        return failures
    }
}

extension Marks {
    /// The app read `uuid` as the notification of the charge `transactionID`.
    static func notified(_ uuid: String, _ transactionID: String) -> String { "notified \(uuid) \(transactionID)" }
    /// A later synced write made the first `count` attempts of `uuid` durable.
    static func synced(_ uuid: String, _ count: Int) -> String { "synced \(uuid) \(count)" }
    /// The sender began attempt `index` of `uuid`, which gets `result`.
    static func sending(_ uuid: String, _ index: Int, _ result: SendAttemptResult) -> String {
        "sending \(uuid) \(index) \(result.rawValue)"
    }
}

extension PowerLossTests {
    /// Moving settled notifications to the archive (`outbox.dat`, `outbox-GENERATION.idx`): the
    /// setup leaves three delivered notifications in the journal and the journal at the
    /// compaction threshold, so the operation's purchase compacts it (the history's frames, the
    /// outbox's frames and their sync, both indexes, the journal's rename) and its notification
    /// is then delivered. Every state reopened must keep each delivered notification exactly
    /// once with its one attempt, whether it is still in the journal or already in the archive,
    /// and the new charge exactly one notification.
    @Test func notificationArchiveCompaction() async throws {
        try await Self.run(
            CrashScenario(
                name: "notification archive compaction",
                setup: { context in
                    try await Self.buyProThenNotify(context) { session in
                        let backend = session.backend
                        for quantity in 1...3 {
                            let coins = try await session.buy(CrashCatalog.coins, quantity: quantity)
                            guard
                                let n = try await backend.notifications.due().due.first(where: {
                                    $0.transaction?.transactionID == coins.transactionID
                                })
                            else { throw SessionError("no notification for \(coins.transactionID)") }
                            try await backend.notifications.recordAttempt(
                                n.notificationUUID,
                                SendAttemptItem(attemptDate: context.clock.now, sendAttemptResult: .success),
                                signedPayload: "sent")
                        }
                    }
                    try Self.padJournalToTheCompactionThreshold(context)
                },
                operation: { context, recorder in
                    try await Self.app(context, recorder) { session in
                        let backend = session.backend
                        let coins = try await session.buy(CrashCatalog.coins)
                        recorder.mark(Marks.acknowledged)
                        guard
                            let n = try await backend.notifications.due().due.first(where: {
                                $0.transaction?.transactionID == coins.transactionID
                            })
                        else { throw SessionError("no notification for \(coins.transactionID)") }
                        recorder.mark(Marks.sending(n.notificationUUID, 1, .success))
                        try await backend.notifications.recordAttempt(
                            n.notificationUUID,
                            SendAttemptItem(attemptDate: context.clock.now, sendAttemptResult: .success),
                            signedPayload: "sent")
                    }
                },
                expectations: { state in Self.judgeArchivedOutbox(state) }),
            recordingMust: { recording in
                recording.renamed { from, to in from.hasPrefix("store/outbox-") && to.hasPrefix("store/outbox-") }
                    && recording.replacedTheJournal
            })
    }

    /// Appends copies of the journal's last settings record up to the compaction threshold
    /// (`StoreJournal.defaultCompactionSlack`: more than 256 lines beyond the header's snapshot
    /// compacts, at an open or after a write), so the next write compacts, as a few hundred
    /// `store set` would leave it.
    static func padJournalToTheCompactionThreshold(_ context: CrashScenario.Context) throws {
        let journal = context.data.appendingPathComponent("store/journal.jsonl")
        let lines = try String(contentsOf: journal, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: true)
        guard let settings = lines.last(where: { $0.contains(#""kind":"settings""#) }) else {
            throw SessionError("the journal has no settings record")
        }
        let header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        let snapshotLines = header?["snapshotLines"] as? Int ?? 0
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(
            contentsOf: Data(String(repeating: settings + "\n", count: 256 - (lines.count - snapshotLines)).utf8))
        try handle.close()
    }

    /// The archive scenario's rules for one recovered state: the setup's coins each keep one
    /// delivered notification with its one attempt; the operation's charge, when durable, has
    /// one notification, delivered with one attempt or still due; nothing else is notified.
    static func judgeArchivedOutbox(_ state: CrashScenario.Judgement) -> [String] {
        var failures: [String] = []
        let coins = Set(state.facts.store.filter { $0.productID == CrashCatalog.coins }.map(\.id))
        let charged = Set(state.facts.charged)
        let byTransaction = Dictionary(grouping: state.facts.notifications, by: { $0.transactionID ?? "" })
        for id in coins where charged.contains(id) {
            let made = byTransaction[id] ?? []
            let isNew = !state.baseline.charged.contains(id)
            guard made.count == 1, let n = made.first, n.kind == "ONE_TIME_CHARGE" else {
                failures.append("charge \(id) has notifications \(made.map(\.kind)), not one ONE_TIME_CHARGE")
                continue
            }
            if isNew {
                if !(n.attempts == [] && n.due)
                    && !(n.attempts == [SendAttemptResult.success.rawValue] && n.delivered && !n.due)
                {
                    failures.append(
                        "the new charge's notification \(n.uuid): attempts \(n.attempts), delivered \(n.delivered), due \(n.due)"
                    )
                }
            } else if n.attempts != [SendAttemptResult.success.rawValue] || !n.delivered || n.due {
                failures.append(
                    "the setup's notification \(n.uuid): attempts \(n.attempts), delivered \(n.delivered), due \(n.due)"
                )
            }
        }
        for n in state.facts.notifications
        where !(coins.contains(n.transactionID ?? "") && charged.contains(n.transactionID ?? "")) {
            failures.append(
                "notification \(n.uuid) (\(n.kind)) is about \(n.transactionID ?? "nothing"), which the store did not charge"
            )
        }
        return failures
    }
}
