import Foundation
import StoreCore
import SystemIO
import TestSupport
import Testing

/// Every crash state a power loss can leave during each durable operation of the engine and
/// the store, reopened by a fresh process (`crash-check`) and judged (`CrashJudge`, and each
/// scenario's own expectations). Each test prints how many states it explored and how many
/// failed. Storage operations (downloads, compactions, a first purchase) are in
/// `PowerLossTests+Storage.swift`, the notification outbox in `PowerLossTests+Notifications.swift`.
@Suite(.serialized) struct PowerLossTests {
    /// Buys Pro in the setup, so every scenario starts with a purchase that must never be lost
    /// (and with the store's signing chain, device identifier and app transaction made: the
    /// first purchase's scenario explores their making).
    static func buyPro(_ context: CrashScenario.Context) async throws {
        try await AppSession.with(context.data, catalog: context.catalog, clock: context.clock) { session in
            try await session.backend.settings.set(name: "bandwidth", value: "0")
            _ = try await session.buy(CrashCatalog.pro)
        }
    }

    /// `buyPro`, then the monthly subscription in the app's next run.
    static func buyProThenMonthly(_ context: CrashScenario.Context) async throws {
        try await buyPro(context)
        try await AppSession.with(context.data, catalog: context.catalog, clock: context.clock) { session in
            _ = try await session.buy(CrashCatalog.monthly)
        }
    }

    /// An operation that is one run of the app, through the recorder.
    static func inApp(
        _ body: @escaping @Sendable (AppSession, RecordingFileSystem) async throws -> Void
    ) -> @Sendable (CrashScenario.Context, RecordingFileSystem) async throws -> Void {
        { context, recorder in try await app(context, recorder) { session in try await body(session, recorder) } }
    }

    /// The operation's run of the app, through the recorder.
    static func app<T>(
        _ context: CrashScenario.Context, _ recorder: RecordingFileSystem, _ body: (AppSession) async throws -> T
    ) async throws -> T {
        try await AppSession.with(
            context.data, catalog: context.catalog, clock: context.clock, fileSystem: recorder, body)
    }

    /// Waits (a bounded number of turns, never the wall clock) until `condition` holds.
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<200_000 {
            if try await condition() { return }
            await Task.yield()
        }
        throw SessionError("never happened: \(what)")
    }

    static func run(_ scenario: CrashScenario, recordingMust check: (Recording) -> Bool = { _ in true }) async throws {
        let (outcome, recording) = try await PowerLossHarness.explore(scenario)
        print(outcome.summary)
        for example in outcome.integrityExamples { print("  integrity error: \(example)") }
        #expect(
            check(recording),
            "the recording lacks what the scenario is about:\n\(recording.operations.map(\.description).joined(separator: "\n"))"
        )
        #expect((outcome.explored[.ordered] ?? 0) > 0)
        // One example of each kind of failure (problems compared without their IDs and paths).
        var kinds: [String: (count: Int, example: String)] = [:]
        for failure in outcome.failures {
            let kind = failure.problems.map { $0.replacing(/[0-9A-F-]{8,}|[0-9]{6,}/, with: "#") }.joined(
                separator: "; ")
            let example =
                "[\(failure.mode)] \(failure.state) (\(failure.directory.path)):\n  "
                + failure.problems.joined(separator: "\n  ")
            kinds[kind, default: (0, example)].count += 1
        }
        let details = kinds.values.sorted { $0.count > $1.count }.prefix(8).map { "\($0.count)× \($0.example)" }
        #expect(outcome.failures.isEmpty, "\(outcome.summary)\n\(details.joined(separator: "\n"))")
        #expect(
            outcome.integrityErrors[.ordered] == nil, "a power loss under ordered journaling must never damage a file")
    }

    @Test func purchases() async throws {
        try await Self.run(
            CrashScenario(
                name: "purchase", setup: Self.buyPro,
                operation: Self.inApp { session, recorder in
                    _ = try await session.buy(CrashCatalog.coins, quantity: 3)
                    recorder.mark(Marks.acknowledged)
                    _ = try await session.buy(CrashCatalog.coins, quantity: 2)
                    recorder.mark(Marks.acknowledgedAgain)
                },
                expectations: { state in
                    let coins = state.ledger(CrashCatalog.coins)
                    if state.passed(Marks.acknowledgedAgain) {
                        return coins.count == 2 && state.facts.balances[CrashCatalog.coins] == 5
                            ? []
                            : [
                                "both acknowledged purchases must be delivered once: \(coins.map(\.id)), \(state.facts.balances)"
                            ]
                    }
                    if state.passed(Marks.acknowledged) {
                        return coins.contains { $0.quantity == 3 }
                            ? [] : ["the acknowledged purchase of 3 coins is lost"]
                    }
                    return []
                }))
    }

    @Test func restore() async throws {
        try await Self.run(
            CrashScenario(
                name: "restore",
                setup: { context in try await Self.buyProThenMonthly(context) },
                operation: Self.inApp { session, recorder in
                    let restored = try await session.store.restoreTransactions()
                    guard restored.count == 2 else { throw SessionError("restored \(restored.map(\.productID))") }
                    recorder.mark(Marks.acknowledged)
                },
                expectations: { state in
                    guard state.passed(Marks.acknowledged) else { return [] }
                    let restored = state.facts.ledger.filter { $0.state == "restored" }
                    return Set(restored.map(\.productID)) == [CrashCatalog.pro, CrashCatalog.monthly]
                        ? [] : ["the acknowledged restore is not in the ledger: \(restored.map(\.productID))"]
                }))
    }

    @Test func refund() async throws {
        try await Self.run(
            CrashScenario(
                name: "refund", setup: Self.buyPro,
                operation: Self.inApp { session, recorder in
                    guard
                        let pro = try session.ledger.transactions().first(where: {
                            $0.productID == CrashCatalog.pro
                        })
                    else {
                        throw SessionError("no Pro to refund")
                    }
                    _ = try await session.backend.transactionManager.refund(transactionID: pro.transactionID)
                    recorder.mark(Marks.storeSaid)
                    try await Self.eventually("the ledger records the refund") {
                        try session.ledger.transaction(withID: pro.transactionID)?.revocationDate != nil
                    }
                    recorder.mark(Marks.acknowledged)
                },
                expectations: { state in
                    guard state.passed(Marks.storeSaid) else { return [] }
                    let pro = state.ledger(CrashCatalog.pro)
                    return !pro.isEmpty && pro.allSatisfy(\.revoked)
                        && state.store(CrashCatalog.pro).allSatisfy(\.revoked)
                        ? []
                        : ["the refund the store made is lost: ledger \(pro), store \(state.store(CrashCatalog.pro))"]
                }))
    }

    @Test func subscriptionRenewal() async throws {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        var scenario = CrashScenario(
            name: "subscription renewal",
            setup: { context in try await Self.buyProThenMonthly(context) },
            operation: Self.inApp { session, recorder in
                try await Self.eventually("the renewal is delivered") {
                    await session.store.synchronize()
                    return try session.ledger.transactions().filter { $0.productID == CrashCatalog.monthly }.count
                        >= 2
                }
                recorder.mark(Marks.acknowledged)
            },
            expectations: { state in
                let renewals = state.ledger(CrashCatalog.monthly)
                guard state.passed(Marks.acknowledged) else { return renewals.count <= 2 ? [] : ["renewed twice"] }
                return renewals.count == 2 ? [] : ["the acknowledged renewal is lost: \(renewals.map(\.id))"]
            })
        scenario.setupTime = start
        scenario.operationTime = start.addingTimeInterval(32 * 86_400)
        try await Self.run(scenario)
    }

    /// The last month of a 12-month commitment and the commitment's renewal, journaled together
    /// when the app comes back a year and five days after buying (payments 1 to 11 delivered
    /// before): every payment charged once, none lost once the app was told, the next
    /// commitment starting at payment 1.
    @Test func commitmentMonthsAndItsRenewal() async throws {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        var scenario = CrashScenario(
            name: "commitment renewal",
            setup: { context in
                try await Self.buyPro(context)
                try await AppSession.with(context.data, catalog: context.catalog, clock: context.clock) { session in
                    let result = await session.store.purchase(
                        CrashCatalog.yearly, options: PurchaseOptions(billingPlanType: .monthly))
                    guard case .purchased(let first) = result, first.commitmentInfo?.billingPeriodNumber == 1 else {
                        throw SessionError("buying monthly ended \(result)")
                    }
                    // Ten months on, before the operation: payments 2 to 11 delivered.
                    context.clock.advance(by: 310 * 86_400)
                    try await Self.eventually("payments 1 to 11 are delivered") {
                        await session.store.synchronize()
                        return try session.ledger.transactions().filter { $0.productID == CrashCatalog.yearly }.count
                            >= 11
                    }
                }
            },
            operation: Self.inApp { session, recorder in
                try await Self.eventually("every month and the renewal are delivered") {
                    await session.store.synchronize()
                    return try session.ledger.transactions().filter { $0.productID == CrashCatalog.yearly }.count
                        >= 13
                }
                recorder.mark(Marks.acknowledged)
            },
            expectations: { state in
                let months = state.ledger(CrashCatalog.yearly).sorted { $0.id < $1.id }
                let numbers = months.map { $0.billingPeriodNumber ?? 0 }
                let expected = Array(1...12) + [1]
                var problems: [String] = []
                if numbers != Array(expected.prefix(numbers.count)) {
                    problems.append("payments out of order or charged twice: \(numbers)")
                }
                let charged = state.store(CrashCatalog.yearly).map { $0.billingPeriodNumber ?? 0 }
                if charged.count > 13 { problems.append("the store charged \(charged.count) months") }
                if state.passed(Marks.acknowledged), numbers != expected {
                    problems.append("acknowledged months are lost: \(numbers)")
                }
                return problems
            })
        scenario.setupTime = start
        scenario.operationTime = start.addingTimeInterval(370 * 86_400)
        try await Self.run(scenario)
    }
}

extension Marks {
    /// The app was told a second success.
    static let acknowledgedAgain = "acknowledged again"
}
