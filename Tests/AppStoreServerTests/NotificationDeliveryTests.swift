import AppStoreServer
import Foundation
import LocalAppStore
import Receipts
import Synchronization
import SystemIO
import TestSupport
import Testing

/// Delivery as Apple's production servers do it, on the store clock: a receiver that fails,
/// times out and then accepts gets the same notification (same UUID, same payload) at the
/// schedule's times, and Get Notification History shows every attempt with its result.
@Suite(.timeLimit(.minutes(10)))
struct NotificationDeliveryTests {
    /// A receiver on 127.0.0.1 that answers the n-th POST as `plan` says: a status, or no
    /// answer until the next POST arrives (the sender's timeout ends that attempt).
    final class Receiver: Sendable {
        enum Answer: Sendable {
            case status(Int)
            case hold
        }

        private struct State {
            var bodies: [Data] = []
            var held: CheckedContinuation<Void, Never>?
        }

        private let state = Mutex(State())
        private let plan: [Answer]
        private(set) nonisolated(unsafe) var daemon: MicroHTTPDaemon!

        init(plan: [Answer]) throws {
            self.plan = plan
            daemon = try MicroHTTPDaemon(configuration: .init(threads: 2)) { [weak self] request in
                guard let self else { return .empty(503) }
                return await self.answer(request)
            }
        }

        var url: String { "http://127.0.0.1:\(daemon.port)/notifications" }
        var bodies: [Data] { state.withLock { $0.bodies } }

        private func answer(_ request: HTTPRequest) async -> HTTPResponse {
            let (index, released) = state.withLock { s -> (Int, CheckedContinuation<Void, Never>?) in
                s.bodies.append(request.body)
                defer { s.held = nil }
                return (s.bodies.count - 1, s.held)
            }
            released?.resume()
            switch index < plan.count ? plan[index] : .status(200) {
            case .status(let code):
                return .empty(code)
            case .hold:
                await withCheckedContinuation { continuation in state.withLock { $0.held = continuation } }
                return .empty(200)
            }
        }

        func stop() async {
            state.withLock { s in
                s.held?.resume()
                s.held = nil
            }
            await daemon.stop()
        }
    }

    /// The sender's attempt lines, as they are journaled.
    final class AttemptLog: Sendable {
        let lines: AsyncStream<String>
        let continuation: AsyncStream<String>.Continuation
        init() { (lines, continuation) = AsyncStream.makeStream(of: String.self) }

        /// A sender on `store` that sends only when woken, its attempts logged here (after `prefix`).
        func sender(_ store: LocalAppStore, prefix: String = "") -> NotificationSender {
            NotificationSender(
                store: store, configuration: .init(watcher: nil, log: { self.continuation.yield(prefix + $0) }))
        }
    }

    /// A sender on `fixture`'s store, started after `settings` are set (with the notification URL
    /// `url`), and the log of its attempts.
    static func started(
        _ fixture: ServerFixture, url: String, settings: [(String, String)] = []
    ) async throws -> (NotificationSender, AttemptLog) {
        try await fixture.store.settings.set(name: "notification-url", value: url)
        for (name, value) in settings { try await fixture.store.settings.set(name: name, value: value) }
        let log = AttemptLog()
        let sender = log.sender(fixture.store)
        await sender.start()
        return (sender, log)
    }

    @Test func failingTwiceThenTimingOutThenAcceptingFollowsApplesSchedule() async throws {
        let fixture = try await ServerFixture()
        let receiver = try Receiver(plan: [.status(500), .status(500), .hold, .status(200)])
        let (sender, log) = try await Self.started(
            fixture, url: receiver.url, settings: [("notification-timeout", "1000")])
        var lines = log.lines.makeAsyncIterator()
        let start = fixture.clock.now

        let bought = try await fixture.buy(ServerFixture.coins)
        sender.wake()
        let hours: [Double] = [0, 1, 12, 24]
        var results: [String] = []
        for (attempt, delay) in hours.enumerated() {
            if attempt > 0 {
                await fixture.clock.waitForSleepers(1)
                fixture.clock.advance(by: delay * 3600)
            }
            results.append(try #require(await lines.next()).split(separator: " ").last.map(String.init) ?? "")
        }
        #expect(
            results == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "TIMED_OUT", "SUCCESS"])

        // Four POSTs of one body: the same UUID and payload on every attempt.
        let bodies = receiver.bodies
        #expect(bodies.count == 4)
        #expect(Set(bodies).count == 1, "every attempt sends the same signed payload")
        let body = try JSONDecoder().decode(ResponseBodyV2.self, from: try #require(bodies.first))
        let payload = try ServerFixture.payload(try #require(body.signedPayload))
        #expect(payload["notificationType"] as? String == "ONE_TIME_CHARGE")
        #expect(payload["version"] as? String == "2.0")
        let uuid = try #require(payload["notificationUUID"] as? String)
        let data = try #require(payload["data"] as? [String: Any])
        let transaction = try ServerFixture.payload(try #require(data["signedTransactionInfo"] as? String))
        #expect(transaction["transactionId"] as? String == bought.transactionID)
        #expect(data["bundleId"] as? String == "com.storefront.demo")
        #expect(data["environment"] as? String == "Sandbox")

        // The attempts at the schedule's store-clock times, in the journal and in the API.
        let stored = try #require(try await fixture.store.notifications.all().first)
        #expect(stored.notificationUUID == uuid)
        let expectedDates = [0.0, 1, 13, 37].map { start.addingTimeInterval($0 * 3600) }
        #expect(stored.sendAttempts.map(\.attemptDate) == expectedDates)
        #expect(stored.nextAttemptDate == nil && stored.isDelivered)

        let milliseconds = { (date: Date) in Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        let answer = try await fixture.api(
            "POST", "/inApps/v1/notifications/history",
            body: [
                "startDate": milliseconds(start.addingTimeInterval(-60)), "endDate": milliseconds(fixture.clock.now),
            ])
        #expect(answer.status == 200, "\(answer.text)")
        let history = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        #expect(history["hasMore"] as? Bool == false)
        let items = try #require(history["notificationHistory"] as? [[String: Any]])
        #expect(items.count == 1)
        let attempts = try #require(items.first?["sendAttempts"] as? [[String: Any]])
        #expect(attempts.compactMap { $0["sendAttemptResult"] as? String } == results)
        #expect(attempts.compactMap { ($0["attemptDate"] as? NSNumber)?.int64Value } == expectedDates.map(milliseconds))
        #expect(items.first?["signedPayload"] as? String == body.signedPayload)

        let failures = try await fixture.api(
            "POST", "/inApps/v1/notifications/history",
            body: [
                "startDate": milliseconds(start), "endDate": milliseconds(fixture.clock.now), "onlyFailures": true,
            ])
        #expect(
            ((try JSONSerialization.jsonObject(with: failures.body) as? [String: Any])?["notificationHistory"] as? [Any])?
                .count == 0)

        await sender.stop()
        await receiver.stop()
        await fixture.close()
    }

    @Test func sandboxSendsOnceAndOffHoldsUntilResent() async throws {
        let fixture = try await ServerFixture()
        let receiver = try Receiver(plan: [.status(503), .status(500)])
        let (sender, log) = try await Self.started(
            fixture, url: receiver.url, settings: [("notification-retries", "sandbox")])
        var lines = log.lines.makeAsyncIterator()
        try await fixture.buy(ServerFixture.coins)
        sender.wake()
        #expect(try #require(await lines.next()).hasSuffix("UNSUCCESSFUL_HTTP_RESPONSE_CODE"))
        let once = try #require(try await fixture.store.notifications.all().first)
        #expect(once.sendAttempts.count == 1 && once.nextAttemptDate == nil, "sandbox: one attempt, no retry")

        try await fixture.store.settings.set(name: "notification-retries", value: "off")
        try await fixture.buy(ServerFixture.pro)
        try await fixture.store.notifications.resend(once.notificationUUID)
        sender.wake()
        #expect(
            try #require(await lines.next()).hasPrefix("notification \(once.notificationUUID) "),
            "off sends only what is resent")
        let all = try await fixture.store.notifications.all()
        #expect(all.map(\.sendAttempts.count) == [2, 0])
        #expect(all[1].nextAttemptDate != nil, "held in the outbox")
        #expect(receiver.bodies.count == 2)

        await sender.stop()
        await receiver.stop()
        await fixture.close()
    }

    @Test func aRefusedConnectionIsASocketIssueAndTwoSendersNeverShareTheLease() async throws {
        let fixture = try await ServerFixture()
        try await fixture.store.settings.set(name: "notification-url", value: "http://127.0.0.1:9/refused")
        let log = AttemptLog()
        let first = log.sender(fixture.store)
        let second = log.sender(fixture.store, prefix: "second ")
        await first.start()
        var lines = log.lines.makeAsyncIterator()
        try await fixture.buy(ServerFixture.coins)
        first.wake()
        #expect(try #require(await lines.next()).hasSuffix("SOCKET_ISSUE"))
        await second.start()
        second.wake()
        #expect(await first.isSending)
        await second.stop()
        #expect(await !second.isSending, "the lease is held by the first sender")
        await first.stop()
        await fixture.close()
    }
}

/// Get Notification History and the test notification endpoints refuse what Apple refuses,
/// with Apple's codes, and page 20 at a time.
@Suite(.timeLimit(.minutes(10)))
struct NotificationEndpointTests {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func errorCode(_ answer: HTTPClient.Answer) -> Int? {
        ((try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any])?["errorCode"] as? Int
    }

    @Test func badRequestsGetApplesErrors() async throws {
        let fixture = try await ServerFixture()
        let now = Self.milliseconds(fixture.clock.now)
        let noURL = try await fixture.api("POST", "/inApps/v1/notifications/test")
        #expect(noURL.status == 404 && Self.errorCode(noURL) == 4_040_007, "no notification URL is set")
        let cases: [([String: Any], Int)] = [
            (["endDate": now], 4_000_015),
            (["startDate": now], 4_000_016),
            (["startDate": now, "endDate": now - 1], 4_000_013),
            (["startDate": now - 181 * 86_400_000, "endDate": now], 4_000_012),
            (["startDate": now - 1000, "endDate": now, "notificationType": "NOT_A_TYPE"], 4_000_018),
            (["startDate": now - 1000, "endDate": now, "notificationSubtype": "INITIAL_BUY"], 4_000_018),
            (["startDate": now - 1000, "endDate": now, "transactionId": "abc"], 4_000_006),
        ]
        for (body, code) in cases {
            let answer = try await fixture.api("POST", "/inApps/v1/notifications/history", body: body)
            #expect(answer.status == 400 && Self.errorCode(answer) == code, "\(body) → \(answer.status) \(answer.text)")
        }
        let token = try await fixture.api(
            "POST", "/inApps/v1/notifications/history?paginationToken=nope",
            body: [
                "startDate": now - 1000, "endDate": now,
            ])
        #expect(Self.errorCode(token) == 4_000_014)
        let unknown = try await fixture.api("GET", "/inApps/v1/notifications/test/0123abcd_1")
        #expect(unknown.status == 404 && Self.errorCode(unknown) == 4_040_008)
        let malformed = try await fixture.api("GET", "/inApps/v1/notifications/test/not%20a%20token")
        #expect(malformed.status == 400 && Self.errorCode(malformed) == 4_000_020)
        await fixture.close()
    }

    /// The history's `startDate`/`endDate` compare whole milliseconds, as its payloads show
    /// dates, whatever finer time the store keeps.
    @Test func historyDatesCompareWholeMilliseconds() async throws {
        let fixture = try await ServerFixture()
        let receiver = try NotificationDeliveryTests.Receiver(plan: [])
        let (sender, log) = try await NotificationDeliveryTests.started(fixture, url: receiver.url)
        var lines = log.lines.makeAsyncIterator()
        fixture.clock.advance(by: 0.0006)
        _ = try await fixture.buy(ServerFixture.coins)
        sender.wake()
        _ = await lines.next()
        let all = try await fixture.api(
            "POST", "/inApps/v1/notifications/history",
            body: [
                "startDate": Self.milliseconds(fixture.clock.now) - 1000,
                "endDate": Self.milliseconds(fixture.clock.now) + 1000,
            ])
        let item = try #require((try all.json()["notificationHistory"] as? [[String: Any]])?.first)
        let payload = try ServerFixture.payload(try #require(item["signedPayload"] as? String))
        let signed = try #require(payload["signedDate"] as? Int)
        let exact = try await fixture.api(
            "POST", "/inApps/v1/notifications/history", body: ["startDate": signed, "endDate": signed])
        #expect((try exact.json()["notificationHistory"] as? [Any])?.count == 1, "created and signed at \(signed) ms")
        await sender.stop()
        await receiver.stop()
        await fixture.close()
    }

    @Test func historyPagesTwentyAtATimeAndFilters() async throws {
        let fixture = try await ServerFixture()
        let receiver = try NotificationDeliveryTests.Receiver(plan: [])
        let (sender, log) = try await NotificationDeliveryTests.started(fixture, url: receiver.url)
        var lines = log.lines.makeAsyncIterator()
        var bought: [String] = []
        for _ in 0..<23 { bought.append(try await fixture.buy(ServerFixture.coins).transactionID) }
        let pro = try await fixture.buy(ServerFixture.pro)
        sender.wake()
        for _ in 0..<24 { _ = await lines.next() }
        let start = Self.milliseconds(fixture.clock.now) - 1000
        let end = Self.milliseconds(fixture.clock.now) + 1000
        let first = try await fixture.api(
            "POST", "/inApps/v1/notifications/history", body: ["startDate": start, "endDate": end])
        let page = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])
        #expect(page["hasMore"] as? Bool == true)
        #expect((page["notificationHistory"] as? [Any])?.count == 20)
        let next = try #require(page["paginationToken"] as? String)
        let second = try await fixture.api(
            "POST", "/inApps/v1/notifications/history?paginationToken=\(next)",
            body: ["startDate": start, "endDate": end])
        let rest = try #require(try JSONSerialization.jsonObject(with: second.body) as? [String: Any])
        #expect(rest["hasMore"] as? Bool == false && rest["paginationToken"] == nil)
        let items = try #require(rest["notificationHistory"] as? [[String: Any]])
        #expect(items.count == 4)
        let last = try ServerFixture.payload(try #require(items.last?["signedPayload"] as? String))
        let data = try #require(last["data"] as? [String: Any])
        #expect(
            try ServerFixture.payload(try #require(data["signedTransactionInfo"] as? String))["transactionId"]
                as? String == pro.transactionID)
        let typed = try await fixture.api(
            "POST", "/inApps/v1/notifications/history",
            body: [
                "startDate": start, "endDate": end, "notificationType": "ONE_TIME_CHARGE", "transactionId": bought[0],
            ])
        let filtered = try #require(try JSONSerialization.jsonObject(with: typed.body) as? [String: Any])
        #expect((filtered["notificationHistory"] as? [Any])?.count == 20, "the customer's 24, a page at a time")
        let none = try await fixture.api(
            "POST", "/inApps/v1/notifications/history",
            body: [
                "startDate": start, "endDate": end, "notificationType": "REFUND",
            ])
        #expect(
            ((try JSONSerialization.jsonObject(with: none.body) as? [String: Any])?["notificationHistory"] as? [Any])?
                .count == 0)
        await sender.stop()
        await receiver.stop()
        await fixture.close()
    }
}
