import Foundation
import LocalAppStore
import StoreCore
import TestSupport
import Testing

@testable import AppStoreServer

/// Reads answered on the HTTP thread from the state the store published, and kept answers:
/// both give way at once to a write by any process.
@Suite struct PublishedStateTests {
    @Test func currentSnapshotIsTheLastReadStateUntilAnyInstanceWrites() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.pro)
        #expect(fixture.store.server.currentSnapshot() == nil, "nothing was read for the server yet")
        let first = try await fixture.store.server.snapshot()
        let now = try #require(fixture.store.server.currentSnapshot())
        #expect(now.publication == first.publication)
        #expect(now.transaction(t.transactionID)?.revocationDate == nil)
        #expect(
            try await fixture.store.server.snapshot().publication == first.publication,
            "an unchanged journal keeps its number"
        )

        // Another instance on the same directory (as another process would) refunds it.
        let other = try LocalAppStore(configuration: fixture.store.configuration)
        _ = try await other.transactionManager.refund(transactionID: t.transactionID)
        #expect(fixture.store.server.currentSnapshot() == nil)
        let second = try await fixture.store.server.snapshot()
        #expect(second.publication > first.publication)
        #expect(second.transaction(t.transactionID)?.revocationDate != nil)
        #expect(fixture.store.server.currentSnapshot()?.publication == second.publication)

        // A write of this instance counts as well.
        _ = try await fixture.buy(ServerFixture.coins)
        #expect(fixture.store.server.currentSnapshot() == nil)
        await fixture.close()
    }

    @Test func readsAreAnsweredNowWithAnswerssBytesAndAnotherProcesssWriteShowsAtOnce() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.pro)
        let token = try fixture.token()
        let path = "/inApps/v1/transactions/\(t.transactionID)"
        let request = HTTPRequest(method: "GET", path: path, headers: ["authorization": "Bearer \(token)"])
        // Refusals need no state.
        #expect(fixture.server.answerNow(HTTPRequest(method: "GET", path: "/inApps/v1/nothing/1"))?.status == 404)
        #expect(fixture.server.answerNow(HTTPRequest(method: "POST", path: path))?.status == 405)
        #expect(fixture.server.answerNow(HTTPRequest(method: "GET", path: path))?.status == 401)
        #expect(fixture.server.answerNow(request) == nil, "no state was read yet")
        let answered = await fixture.server.answer(request)
        #expect(answered.status == 200)
        #expect(fixture.server.answerNow(request) == answered)
        let history = HTTPRequest(
            method: "GET", path: "/inApps/v2/history/\(t.transactionID)", headers: request.headers)
        #expect(fixture.server.answerNow(history) == (await fixture.server.answer(history)))
        // Writes, verifyReceipt and OCSP always go through the store's actor.
        let put = HTTPRequest(
            method: "PUT", path: "/inApps/v1/transactions/\(t.transactionID)/appAccountToken", headers: request.headers,
            body: Data(#"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#.utf8))
        #expect(fixture.server.answerNow(put) == nil)
        #expect(fixture.server.answerNow(HTTPRequest(method: "POST", path: "/verifyReceipt")) == nil)

        // Another process refunds: the kept answer is not given again, over HTTP the refund shows.
        let other = try LocalAppStore(configuration: fixture.store.configuration)
        _ = try await other.transactionManager.refund(transactionID: t.transactionID)
        #expect(fixture.server.answerNow(request) == nil)
        let after = try await fixture.client.send("GET", path, headers: ["Authorization": "Bearer \(token)"])
        let jws = try #require(try after.json()["signedTransactionInfo"] as? String)
        #expect(try ServerFixture.payload(jws)["revocationDate"] != nil)
        #expect(fixture.server.answerNow(request)?.body == after.body)

        // A write through the API itself: the next read shows it (the token, lowercase).
        let set = try await fixture.client.send(
            "PUT", put.path, headers: ["Authorization": "Bearer \(token)"], body: put.body)
        #expect(set.status == 200)
        let tokened = try await fixture.client.send("GET", path, headers: ["Authorization": "Bearer \(token)"])
        let tokenedJWS = try #require(try tokened.json()["signedTransactionInfo"] as? String)
        #expect(
            try ServerFixture.payload(tokenedJWS)["appAccountToken"] as? String
                == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        await fixture.close()
    }

    @Test func aKeptAnswerIsTheComputedOneAndOnlyForItsState() throws {
        let cache = AnswerCache()
        let key = AnswerCache.Key(path: "/a", query: [.init(name: "sort", value: "DESCENDING")])
        let other = AnswerCache.Key(path: "/a", query: [.init(name: "sort", value: nil)])
        cache.keep(.json(200, Data("one".utf8)), for: key, publication: 3)
        #expect(cache.answer(for: key, publication: 3)?.body == Data("one".utf8))
        #expect(cache.answer(for: other, publication: 3) == nil)
        #expect(cache.answer(for: key, publication: 4) == nil)
        cache.keep(.json(200, Data("old".utf8)), for: other, publication: 2)
        #expect(cache.answer(for: other, publication: 2) == nil, "an answer for an older state is not kept")
        cache.keep(.json(200, Data("two".utf8)), for: other, publication: 4)
        #expect(cache.answer(for: key, publication: 3) == nil, "a newer state drops the older answers")
        #expect(cache.answer(for: other, publication: 4)?.body == Data("two".utf8))
    }
}
