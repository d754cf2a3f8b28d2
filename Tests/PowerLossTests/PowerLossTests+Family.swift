import Foundation
import LocalAppStore
import StoreCore
import TestSupport
import Testing

/// Family Sharing under power loss: a purchase shared with a member, a share revoked and a
/// member removed. The checker runs every other account's app after the purchaser's
/// (`CrashCheckReport.MemberFacts`): its shared transaction exists exactly when the purchaser's
/// charge does, and is delivered once.
extension PowerLossTests {
    static let member = StoreAccount(id: "bob", displayName: "Bob")

    /// `buyPro`, then Bob joins the family (and gets Pro shared).
    static func buyProThenFamily(_ context: CrashScenario.Context) async throws {
        try await buyPro(context)
        try await AppSession.with(context.data, catalog: context.catalog, clock: context.clock) { session in
            _ = try await session.backend.familySharing.add(member)
        }
    }

    /// The member's transactions of `productID` in the store and in its ledger.
    static func shares(
        _ state: CrashScenario.Judgement, _ productID: String
    ) -> (store: [CrashCheckReport.TransactionFacts], ledger: [CrashCheckReport.TransactionFacts])? {
        guard let bob = state.facts.members[member.id] else { return nil }
        return (bob.store.filter { $0.productID == productID }, bob.ledger.filter { $0.productID == productID })
    }

    @Test func aSharedPurchase() async throws {
        try await Self.run(
            CrashScenario(
                name: "shared purchase", setup: Self.buyProThenFamily,
                operation: Self.inApp { session, recorder in
                    _ = try await session.buy(CrashCatalog.monthly)
                    recorder.mark(Marks.acknowledged)
                },
                expectations: { state in
                    guard let (store, ledger) = Self.shares(state, CrashCatalog.monthly) else {
                        return ["the family is lost"]
                    }
                    let charged = state.store(CrashCatalog.monthly).contains { state.facts.charged.contains($0.id) }
                    var problems: [String] = []
                    if store.count != (charged ? 1 : 0) {
                        problems.append("the member has \(store.count) shares of a purchase charged: \(charged)")
                    }
                    if !store.allSatisfy(\.familyShared) { problems.append("a share is not FAMILY_SHARED: \(store)") }
                    if ledger.map(\.id) != store.map(\.id) {
                        problems.append(
                            "the member's app holds \(ledger.map(\.id)), not once each of \(store.map(\.id))")
                    }
                    if state.passed(Marks.acknowledged), store.isEmpty {
                        problems.append("the acknowledged share is lost")
                    }
                    return problems
                }))
    }

    @Test func aRevokedShare() async throws {
        try await Self.run(
            CrashScenario(
                name: "revoked share", setup: Self.buyProThenFamily,
                operation: Self.inApp { session, recorder in
                    try await session.backend.familySharing.setSharing(productID: CrashCatalog.pro, on: false)
                    recorder.mark(Marks.storeSaid)
                },
                expectations: Self.theShareEndsOnceOrNot))
    }

    /// The organizer removes Bob from the family: his share of Pro ends with it (the checker
    /// runs a removed member's app too).
    @Test func aRemovedMember() async throws {
        try await Self.run(
            CrashScenario(
                name: "removed member", setup: Self.buyProThenFamily,
                operation: Self.inApp { session, recorder in
                    _ = try await session.backend.familySharing.remove(Self.member.id)
                    recorder.mark(Marks.storeSaid)
                },
                expectations: Self.theShareEndsOnceOrNot))
    }

    /// What must hold when a write ends Bob's share of Pro: his one transaction of it, revoked in
    /// his app exactly when in the store, and revoked for good once the store said so; the
    /// purchaser's own Pro untouched.
    static func theShareEndsOnceOrNot(_ state: CrashScenario.Judgement) -> [String] {
        guard let (store, ledger) = Self.shares(state, CrashCatalog.pro) else {
            return ["the member's app did not run"]
        }
        var problems: [String] = []
        if store.count != 1 || ledger.map(\.id) != store.map(\.id) {
            problems.append("the member's share must stay one transaction: store \(store), ledger \(ledger)")
        }
        if store.map(\.revoked) != ledger.map(\.revoked) {
            problems.append("the member's app and the store disagree on the revoke: \(store), \(ledger)")
        }
        if state.passed(Marks.storeSaid), !store.allSatisfy(\.revoked) {
            problems.append("the revoke the store made is lost")
        }
        if state.store(CrashCatalog.pro).contains(where: \.revoked) {
            problems.append("the purchaser's own Pro was revoked")
        }
        return problems
    }
}
