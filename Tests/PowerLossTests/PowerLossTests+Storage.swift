import Foundation
import StoreCore
import SystemIO
import TestSupport
import Testing
import Vault

/// The storage operations' crash states: a download's checkpoints and install, vault and
/// journal compaction, and the first purchase of a new data directory.
extension PowerLossTests {
    @Test func downloadCheckpointsAndInstall() async throws {
        try await Self.run(
            CrashScenario(
                name: "download and install", setup: Self.buyPro,
                operation: Self.inApp { session, recorder in
                    let levels = try await session.buy(CrashCatalog.levels)
                    recorder.mark(Marks.storeSaid)
                    let state = try await session.waitForDownload(levels.transactionID)
                    guard state == .finished else { throw SessionError("the download ended \(state)") }
                    recorder.mark(Marks.acknowledged)
                },
                expectations: { state in
                    guard state.passed(Marks.storeSaid) else { return [] }
                    return state.ledger(CrashCatalog.levels).count == 1
                        ? [] : ["the purchase with content is not delivered once"]
                }),
            recordingMust: { recording in recording.renamed { _, to in to.hasPrefix("Content/") } })
    }

    @Test func vaultCompaction() async throws {
        let consumes = 7
        try await Self.run(
            CrashScenario(
                name: "vault compaction",
                setup: { context in
                    try await Self.buyPro(context)
                    try await AppSession.with(context.data, catalog: context.catalog, clock: context.clock) { session in
                        _ = try await session.buy(CrashCatalog.coins, quantity: 10)
                    }
                },
                operation: { context, recorder in
                    let vaultURL = context.data.appendingPathComponent("vault.sfv")
                    // Compaction after a handful of superseded records instead of 1024.
                    let ledger = {
                        VaultLedger(
                            vault: try Vault(
                                at: vaultURL, key: .keyFile(VaultKey.defaultKeyFile(for: vaultURL)),
                                configuration: VaultConfiguration(
                                    clock: context.clock, fileSystem: recorder, compactionMinimumGarbage: 2)),
                            clock: context.clock)
                    }
                    try await AppSession.with(
                        context.data, catalog: context.catalog, clock: context.clock, fileSystem: recorder,
                        ledger: ledger
                    ) { session in
                        for count in 1...consumes {
                            _ = try await session.store.consume(CrashCatalog.coins)
                            recorder.mark("consumed \(count)")
                        }
                    }
                },
                expectations: { _ in [] },
                consumption: { marks in
                    let acknowledged = (1...consumes).filter { marks.contains("consumed \($0)") }.count
                    return acknowledged...min(consumes, acknowledged + 1)
                }),
            recordingMust: { recording in
                recording.operations.contains(.rename(from: "vault.sfv.tmp", to: "vault.sfv"))
            })
    }

    @Test func journalCompaction() async throws {
        try await Self.run(
            CrashScenario(
                name: "store journal compaction",
                setup: { context in
                    try await Self.buyPro(context)
                    // The purchase's first write compacts the journal, not the baseline's open.
                    try Self.padJournalToTheCompactionThreshold(context)
                },
                operation: Self.inApp { session, recorder in
                    _ = try await session.buy(CrashCatalog.coins)
                    recorder.mark(Marks.acknowledged)
                },
                expectations: Self.keepsHistoryAndAcknowledgedCoins(1)),
            recordingMust: { recording in
                recording.replacedTheJournal
                    && recording.operations.filter {
                        if case .rename(_, "store/journal.jsonl") = $0 { true } else { false }
                    }.count == 1
            })
    }

    /// A compaction whose run of the history index merges with the one before it
    /// (`LayeredIndex.mergeCount`): the setup's first compaction wrote a run for what it moved,
    /// the operation's purchase compacts again and writes one run in place of both. Whatever a
    /// crash leaves (the merged run lost, torn or not renamed, the journal renamed or not),
    /// nothing acknowledged is lost and the history reads whole.
    @Test func journalCompactionMergingIndexRuns() async throws {
        try await Self.run(
            CrashScenario(
                name: "store journal compaction merging index runs",
                setup: { context in
                    try await Self.buyPro(context)
                    try Self.padJournalToTheCompactionThreshold(context)
                    try await AppSession.with(context.data, catalog: context.catalog, clock: context.clock) { session in
                        _ = try await session.buy(CrashCatalog.coins)
                    }
                    let runs = try Self.historyRuns(context)
                    guard runs.count == 1 else { throw SessionError("the setup's compaction left runs \(runs)") }
                    try Self.padJournalToTheCompactionThreshold(context)
                },
                operation: { context, recorder in
                    let before = try Self.historyRuns(context)
                    try await Self.app(context, recorder) { session in
                        _ = try await session.buy(CrashCatalog.coins)
                        recorder.mark(Marks.acknowledged)
                    }
                    let after = try Self.historyRuns(context)
                    guard after.count == 1, after[0].start == before[0].start,
                        after[0].generation != before[0].generation
                    else {
                        throw SessionError("the compaction did not merge its run with \(before): \(after)")
                    }
                },
                expectations: Self.keepsHistoryAndAcknowledgedCoins(2)),
            recordingMust: { recording in
                recording.renamed { from, to in
                    from.hasPrefix("store/history-") && to.hasPrefix("store/history-") && to.hasSuffix(".idx")
                } && recording.replacedTheJournal
            })
    }

    /// What a compaction must keep whatever a crash leaves: `coins` coin purchases in the
    /// ledger once the last was acknowledged, and every transaction the store had.
    static func keepsHistoryAndAcknowledgedCoins(_ coins: Int) -> @Sendable (CrashScenario.Judgement) -> [String] {
        { state in
            var failures: [String] = []
            if state.passed(Marks.acknowledged), state.ledger(CrashCatalog.coins).count != coins {
                failures.append(coins == 1 ? "the acknowledged purchase is lost" : "an acknowledged purchase is lost")
            }
            if state.facts.store.count < state.baseline.charged.count {
                failures.append("the store lost history")
            }
            return failures
        }
    }

    /// The runs of the history index the journal's header names (`historyRuns`, as
    /// `[generation, start]` pairs).
    static func historyRuns(_ context: CrashScenario.Context) throws -> [(generation: Int, start: Int)] {
        let journal = context.data.appendingPathComponent("store/journal.jsonl")
        let line = try Data(contentsOf: journal).split(separator: UInt8(ascii: "\n"))[0]
        let header = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
        let runs = header?["historyRuns"] as? [[String: Any]] ?? []
        return runs.map { ($0["generation"] as? Int ?? -1, $0["start"] as? Int ?? -1) }
    }

    @Test func firstPurchaseInANewDataDirectory() async throws {
        try await Self.run(
            CrashScenario(
                name: "first purchase (new data directory)",
                // Nothing before: the journal, leases, key, vault, and the store's signing chain,
                // device identifier and app transaction (written through the file layer too) are new.
                setup: { _ in },
                operation: Self.inApp { session, recorder in
                    _ = try await session.buy(CrashCatalog.coins)
                    recorder.mark(Marks.acknowledged)
                },
                expectations: { state in
                    guard state.passed(Marks.acknowledged) else { return [] }
                    return state.ledger(CrashCatalog.coins).count == 1
                        ? [] : ["the first purchase, acknowledged, is lost"]
                }),
            recordingMust: { recording in
                let linked = recording.operations.compactMap { operation -> String? in
                    if case .link(_, let to) = operation { return to }
                    return nil
                }
                let renamed = recording.operations.compactMap { operation -> String? in
                    if case .rename(_, let to) = operation { return to }
                    return nil
                }
                return linked.contains { $0.hasSuffix("store/device-id") }
                    && linked.contains { $0.contains("store/AppTransactions/") }
                    && renamed.contains { $0.hasSuffix("store/Certificates") }
            })
    }
}
