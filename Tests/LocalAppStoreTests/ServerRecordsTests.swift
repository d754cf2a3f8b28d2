import Foundation
import Testing

@testable import LocalAppStore

/// `ServerRecords` shares one append-only log among its copies: a copy held elsewhere (the
/// snapshot the server publishes) keeps seeing what it saw, appending while one is held does
/// not copy the log, and copies that go different ways each get what they applied.
@Suite struct ServerRecordsTests {
    static func consumption(_ id: String, _ n: Int) -> ServerRecord {
        ServerRecord(
            consumption: ConsumptionRecord(
                transactionID: id, receivedDate: Date(timeIntervalSince1970: Double(n)), version: 2,
                fields: ["n": "\(n)"]))
    }

    static func token(_ id: String, _ token: UUID) -> ServerRecord {
        ServerRecord(appAccountToken: AppAccountTokenRecord(originalTransactionID: id, token: token))
    }

    static func mass(_ request: String, succeeded: Int) -> ServerRecord {
        ServerRecord(
            massExtension: MassRenewalExtension(
                requestIdentifier: request, productID: "monthly", days: 3, reasonCode: 1, storefronts: [],
                completeDate: Date(timeIntervalSince1970: 0), succeededCount: succeeded, failedCount: 0))
    }

    @Test func aHeldCopyKeepsWhatItSawWhileTheOriginalGrowsOnTheSameLog() {
        var records = ServerRecords()
        records.apply(Self.consumption("1", 0))
        let published = records
        for n in 1...1_000 { records.apply(Self.consumption(n % 2 == 0 ? "1" : "2", n)) }
        #expect(published.consumption(transactionID: "1").map(\.fields) == [["n": "0"]])
        #expect(published.consumption(transactionID: "2").isEmpty)
        #expect(published.allConsumption.mapValues(\.count) == ["1": 1])
        #expect(records.consumption(transactionID: "1").count == 501)
        #expect(
            records.consumption(transactionID: "2").map { $0.fields["n"] }
                == stride(from: 1, through: 999, by: 2).map { "\($0)" })
        #expect(records.allConsumption.mapValues(\.count) == ["1": 501, "2": 500])
        #expect(published.sharesLog(with: records), "appending while a copy is held must not copy the log")
    }

    @Test func copiesThatGoDifferentWaysEachKeepTheirOwn() {
        var a = ServerRecords()
        a.apply(Self.consumption("1", 0))
        var b = a
        a.apply(Self.consumption("1", 1))
        b.apply(Self.consumption("1", 2))
        b.apply(Self.consumption("3", 3))
        #expect(a.consumption(transactionID: "1").map { $0.fields["n"] } == ["0", "1"])
        #expect(b.consumption(transactionID: "1").map { $0.fields["n"] } == ["0", "2"])
        #expect(a.consumption(transactionID: "3").isEmpty)
        #expect(b.consumption(transactionID: "3").count == 1)
        #expect(!a.sharesLog(with: b))
        // A later copy of `a` goes on sharing `a`'s log.
        var c = a
        c.apply(Self.consumption("4", 4))
        #expect(c.sharesLog(with: a) && a.consumption(transactionID: "4").isEmpty)
    }

    /// A transaction's draft applies records first, then the store applies the same ones: the
    /// store reuses the draft's positions instead of copying the log.
    @Test func theSameRecordAppliedByADraftAndThenTheStoreIsShared() {
        var state = ServerRecords()
        state.apply(Self.consumption("1", 0))
        var draft = state
        draft.apply(Self.mass("r", succeeded: 2))
        state.apply(Self.mass("r", succeeded: 2))
        #expect(state.sharesLog(with: draft))
        #expect(state.massExtension(productID: "monthly", requestIdentifier: "r")?.succeededCount == 2)
        // A different record at the same position is not taken for it.
        var other = draft
        draft.apply(Self.mass("s", succeeded: 1))
        other.apply(Self.mass("s", succeeded: 5))
        #expect(!other.sharesLog(with: draft))
        #expect(other.massExtension(productID: "monthly", requestIdentifier: "s")?.succeededCount == 5)
        #expect(draft.massExtension(productID: "monthly", requestIdentifier: "s")?.succeededCount == 1)
    }

    @Test func lookupsAnswerTheLastVersionAndTheSnapshotRebuildsTheSameState() {
        let first = UUID()
        let last = UUID()
        var records = ServerRecords()
        records.apply(Self.token("100", first))
        records.apply(Self.mass("r", succeeded: 1))
        records.apply(Self.consumption("7", 1))
        records.apply(Self.token("100", last))
        records.apply(Self.mass("r", succeeded: 4))
        #expect(records.appAccountToken(originalTransactionID: "100") == last)
        #expect(records.appAccountToken(originalTransactionID: "101") == nil)
        #expect(records.massExtension(productID: "monthly", requestIdentifier: "r")?.succeededCount == 4)
        let snapshot = records.snapshot
        #expect(snapshot.count == 4, "the first token is superseded")
        var rebuilt = ServerRecords()
        for record in snapshot { rebuilt.apply(record) }
        #expect(rebuilt.appAccountToken(originalTransactionID: "100") == last)
        #expect(rebuilt.massExtension(productID: "monthly", requestIdentifier: "r")?.succeededCount == 4)
        #expect(rebuilt.allConsumption == records.allConsumption)
        #expect(rebuilt.snapshot == snapshot)
    }
}
