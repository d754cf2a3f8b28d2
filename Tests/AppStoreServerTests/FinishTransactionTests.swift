import AppStoreServer
import Foundation
import LocalAppStore
import StoreCore
import TestSupport
import Testing

/// Finish Transaction (App Store Server API 1.20): the server's finish is the app's finish,
/// durable, idempotent, refused with Apple's codes for what the server does not know.
@Suite(.timeLimit(.minutes(10)))
struct FinishTransactionTests {
    /// Buys `productID` and leaves the purchase unfinished, as an app that died before finishing it.
    static func unfinished(_ fixture: ServerFixture, _ productID: String) async throws -> StoreCore.Transaction {
        var events = await fixture.store.events().makeAsyncIterator()
        let queued = try await fixture.store.add(Payment(productID: productID))
        while let event = await events.next() {
            if case .transactionsUpdated(let updated) = event,
                let decided = updated.first(where: {
                    $0.transactionID == queued.transactionID && $0.state == .purchased
                })
            {
                return decided
            }
        }
        throw StoreError.unknown("the event stream ended")
    }

    @Test func finishesAsTheAppWouldAndALaterStartDoesNotDeliverItAgain() async throws {
        let fixture = try await ServerFixture()
        let t = try await Self.unfinished(fixture, ServerFixture.coins)
        #expect(try await fixture.store.unfinishedTransactions().map(\.transactionID) == [t.transactionID])
        let answer = try await fixture.api("POST", "/inApps/v1/transactions/\(t.transactionID)/finish")
        #expect(answer.status == 200)
        #expect(answer.body.isEmpty)
        #expect(try await fixture.store.unfinishedTransactions().isEmpty)
        // Again: the same answer, nothing written.
        let before = try fixture.stateFiles()
        #expect(try await fixture.api("POST", "/inApps/v1/transactions/\(t.transactionID)/finish").status == 200)
        #expect(try fixture.stateFiles() == before)
        await fixture.close()

        // The next process (the app's next start) reads the journal: nothing waits for it.
        let next = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: ServerFixture.catalog(),
                stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: fixture.directory),
                initialLatencyMilliseconds: 0))
        #expect(try await next.unfinishedTransactions().isEmpty)
        #expect(try await next.finishedTransactions()?.map(\.transactionID) == [t.transactionID])
    }

    @Test func refusesWhatTheServerDoesNotKnowWithApplesCodesAndChangesNothing() async throws {
        let fixture = try await ServerFixture()
        try await fixture.store.settings.set(name: "ask-to-buy", value: "on")
        var events = await fixture.store.events().makeAsyncIterator()
        let deferred = try await fixture.store.add(Payment(productID: ServerFixture.pro))
        // Waiting for approval: a transaction of the store's, none of the server's.
        while let event = await events.next() {
            if case .transactionsUpdated(let updated) = event,
                updated.contains(where: { $0.transactionID == deferred.transactionID && $0.state == .deferred })
            {
                break
            }
        }
        let before = try fixture.stateFiles()
        for (id, status, code) in [
            ("not-a-number", 400, 4_000_006), ("9999999999", 404, 4_040_010), (deferred.transactionID, 404, 4_040_010),
        ] {
            let answer = try await fixture.api("POST", "/inApps/v1/transactions/\(id)/finish")
            #expect(answer.status == status, "\(id)")
            #expect(try answer.json()["errorCode"] as? Int == code, "\(id)")
            #expect(answer.headers["content-type"] == "application/json")
        }
        #expect(try fixture.stateFiles() == before)
        await fixture.close()
    }
}
