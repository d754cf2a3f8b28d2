import AppStoreServer
import Foundation
import LocalAppStore
import StoreCore
import Synchronization
import TestSupport
import Testing

/// The App Store's side of Get Retention Message against a developer's endpoint (a real HTTP
/// server on 127.0.0.1): what it shows for each answer, and the fallback for answers that are
/// late, hang, fail, redirect or are not Apple's — nothing hangs, every exchange is logged.
@Suite(.timeLimit(.minutes(10)))
struct RealtimeRetentionTests {
    /// A developer's endpoint whose answer the test sets; `hang` answers only when `release()` is called.
    final class Endpoint: Sendable {
        let daemon: MicroHTTPDaemon
        private let answer = Mutex<@Sendable (HTTPRequest) -> HTTPResponse?>({ _ in nil })
        private let gate = AsyncStream<Void>.makeStream()
        let requests = Mutex<[Data]>([])

        init() throws {
            let box = Mutex<Endpoint?>(nil)
            daemon = try MicroHTTPDaemon(configuration: .init()) { request in
                guard let endpoint = box.withLock({ $0 }) else { return .empty(503) }
                return await endpoint.respond(request)
            }
            box.withLock { $0 = self }
        }

        var url: String { "http://127.0.0.1:\(daemon.port)/retention" }

        /// Answers every request with `response`, or (nil) holds it until `release()`.
        func answer(_ response: @escaping @Sendable (HTTPRequest) -> HTTPResponse?) {
            answer.withLock { $0 = response }
        }

        func respond(_ request: HTTPRequest) async -> HTTPResponse {
            requests.withLock { $0.append(request.body) }
            if let response = answer.withLock({ $0 })(request) { return response }
            for await _ in gate.stream {}
            return .empty(200)
        }

        func release() { gate.continuation.finish() }

        func close() async {
            release()
            await daemon.stop()
        }
    }

    static func json(_ object: Any) -> HTTPResponse {
        .json(200, try! JSONSerialization.data(withJSONObject: object))
    }

    /// A fixture with a subscription, an approved message and default message, the endpoint
    /// configured. Its answers have `timeout` milliseconds: a generous bound by default, so only
    /// an endpoint that hangs on purpose is late, however loaded the machine.
    static func scene(
        timeout: Int = 30_000
    ) async throws -> (ServerFixture, Endpoint, String, message: UUID, fallback: UUID) {
        let fixture = try await ServerFixture()
        try await fixture.store.settings.set(name: "realtime-timeout", value: String(timeout))
        let subscription = try await fixture.buy(ServerFixture.monthly)
        let retention = fixture.store.retention
        let message = UUID()
        let fallback = UUID()
        try retention.uploadMessage(
            message, content: try Self.content(#"{"header": "Stay", "body": "Levels stay unlocked."}"#),
            heldForReview: false)
        try retention.uploadMessage(
            fallback, content: try Self.content(#"{"header": "Default", "body": "We'd miss you."}"#),
            heldForReview: false)
        try retention.configureDefault(productID: ServerFixture.monthly, locale: "en-US", messageID: fallback)
        let endpoint = try Endpoint()
        try retention.setRealtimeURL(endpoint.url, environment: .sandbox)
        return (fixture, endpoint, subscription.originalTransactionID, message, fallback)
    }

    /// A message's content as an Upload Message request's body gives it.
    static func content(_ json: String) throws -> RetentionMessage.Content {
        try RetentionMessage.Content(uploadMessageRequestBody: Data(json.utf8))
    }

    @Test func showsTheAnswersMessageOrSwitchPlanAndLogsTheExchange() async throws {
        let (fixture, endpoint, original, message, _) = try await Self.scene()
        let realtime = RealtimeRetention(store: fixture.store)
        endpoint.answer { _ in Self.json(["message": ["messageIdentifier": message.uuidString]]) }
        let shown = try await realtime.offer(originalTransactionID: original, userLocale: "en-US")
        #expect(shown.shown == .message)
        #expect(shown.message?.identifier == message)
        #expect(shown.fallbackReason == nil)

        // The request is Apple's: a signedPayload whose payload names the subscription.
        let sent = try #require(endpoint.requests.withLock { $0.last })
        let body = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: String])
        let payload = try ServerFixture.payload(try #require(body["signedPayload"]))
        #expect(payload["originalTransactionId"] as? String == original)
        #expect(payload["productId"] as? String == ServerFixture.monthly)
        #expect(payload["userLocale"] as? String == "en-US")
        #expect(payload["environment"] as? String == "Sandbox")
        #expect(payload["requestIdentifier"] as? String == shown.requestIdentifier.uuidString.lowercased())

        endpoint.answer { _ in
            Self.json([
                "alternateProduct": ["messageIdentifier": message.uuidString, "productId": ServerFixture.yearly]
            ])
        }
        let switchPlan = try await realtime.offer(originalTransactionID: original, userLocale: "en-US")
        #expect(switchPlan.shown == .alternateProduct)
        #expect(switchPlan.alternateProductID == ServerFixture.yearly)

        let log = try fixture.store.retention.state().exchanges
        #expect(log.map(\.shown) == [.message, .alternateProduct])
        #expect(log.map(\.status) == [200, 200])
        #expect(log.first?.url == endpoint.url)
        #expect(log.first?.requestIdentifier == shown.requestIdentifier)
        await endpoint.close()
        await fixture.close()
    }

    @Test(
        arguments: [
            ("garbage", "the answer is not a RealtimeResponseBody"),
            ("500", "the answer's status is 500, not 200"),
            ("redirect", "the answer's status is 302, not 200"),
            ("two", "the answer chooses message and alternateProduct; Apple shows exactly one"),
            ("nothing", "the answer chooses nothing (message, alternateProduct or promotionalOffer)"),
            ("unknown", "no message has the identifier"),
            ("itself", "alternateProduct suggests \(ServerFixture.monthly), the subscription itself"),
            (
                "consumable",
                "\(ServerFixture.coins) is not a subscription of the same group as \(ServerFixture.monthly)"
            ),
            ("v2", "promotionalOfferSignatureV2 is not taken by the local App Store yet"),
            ("hang", "no answer within the realtime timeout"),
        ])
    func anUnusableAnswerFallsBackToTheDefaultMessage(_ kind: String, _ reason: String) async throws {
        let (fixture, endpoint, original, message, fallback) = try await Self.scene(
            timeout: kind == "hang" ? 300 : 30_000)
        let id = message.uuidString
        endpoint.answer { _ in
            switch kind {
            case "garbage": HTTPResponse(status: 200, body: Data("<html>".utf8))
            case "500": .json(500, Data("{}".utf8))
            case "redirect": HTTPResponse(status: 302, headers: [.init("Location", "http://127.0.0.1:1/elsewhere")])
            case "two":
                Self.json(["message": ["messageIdentifier": id], "alternateProduct": ["messageIdentifier": id]])
            case "nothing": Self.json([:])
            case "unknown": Self.json(["message": ["messageIdentifier": UUID().uuidString]])
            case "itself":
                Self.json(["alternateProduct": ["messageIdentifier": id, "productId": ServerFixture.monthly]])
            case "consumable":
                Self.json(["alternateProduct": ["messageIdentifier": id, "productId": ServerFixture.coins]])
            case "v2":
                Self.json(["promotionalOffer": ["messageIdentifier": id, "promotionalOfferSignatureV2": "a.b.c"]])
            default: nil
            }
        }
        let shown = try await RealtimeRetention(store: fixture.store).offer(
            originalTransactionID: original, userLocale: "en-US")
        #expect(shown.shown == .defaultMessage)
        #expect(shown.message?.identifier == fallback)
        #expect(shown.fallbackReason?.hasPrefix(reason) == true, "\(shown.fallbackReason ?? "-")")
        let logged = try #require(try fixture.store.retention.state().exchanges.last)
        #expect(logged.shown == .defaultMessage && logged.fallbackReason == shown.fallbackReason)
        if kind == "hang" {
            #expect(logged.result == "TIMED_OUT")
        }
        await endpoint.close()
        await fixture.close()
    }

    @Test func withoutADefaultMessageNothingIsShownAndWithoutAURLNothingIsSent() async throws {
        let (fixture, endpoint, original, message, _) = try await Self.scene()
        try fixture.store.retention.deleteDefault(productID: ServerFixture.monthly, locale: "en-US")
        try fixture.store.retention.reviewMessage(message, approve: false)
        endpoint.answer { _ in Self.json(["message": ["messageIdentifier": message.uuidString]]) }
        let realtime = RealtimeRetention(store: fixture.store)
        let rejected = try await realtime.offer(originalTransactionID: original, userLocale: "en-US")
        #expect(rejected.shown == .none && rejected.message == nil)
        #expect(rejected.fallbackReason == "the message \(message.uuidString.lowercased()) is REJECTED, not APPROVED")
        try fixture.store.retention.deleteRealtimeURL(environment: .sandbox)
        let sent = endpoint.requests.withLock { $0.count }
        let unasked = try await realtime.offer(originalTransactionID: original, userLocale: "en-US")
        #expect(unasked.fallbackReason == "no realtime URL is configured for Sandbox")
        #expect(endpoint.requests.withLock { $0.count } == sent)
        await #expect(throws: RealtimeRetention.Refusal.unknownSubscription("42")) {
            try await realtime.offer(originalTransactionID: "42")
        }
        _ = try await fixture.store.subscriptions.setAutoRenew(original, on: false)
        await #expect(throws: RealtimeRetention.Refusal.notRenewing(original)) {
            try await realtime.offer(originalTransactionID: original)
        }
        await endpoint.close()
        await fixture.close()
    }

    @Test func aPerformanceTestOfAFailingEndpointFailsWithItsFailuresCounted() async throws {
        let (fixture, endpoint, original, _, _) = try await Self.scene()
        endpoint.answer { _ in .json(503, Data("{}".utf8)) }
        let started = try await fixture.api(
            "POST", "/inApps/v1/messaging/performanceTest", body: ["originalTransactionId": original]
        ).json()
        let config = try #require(started["config"] as? [String: Int])
        #expect(config["totalRequests"] == 100 && config["maxConcurrentRequests"] == 10)
        #expect(config["responseTimeThreshold"] == 30_000 && config["successRateThreshold"] == 95)
        let id = try #require(started["requestId"] as? String)
        var result: [String: Any] = [:]
        repeat {
            result = try await fixture.api("GET", "/inApps/v1/messaging/performanceTest/result/\(id)").json()
        } while result["result"] as? String == "PENDING"
        #expect(result["result"] as? String == "FAIL")
        #expect(result["successRate"] as? Int == 0)
        #expect(result["numPending"] as? Int == 0)
        #expect(result["failures"] as? [String: Int] == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE": 100])
        #expect(result["target"] as? String == endpoint.url)
        #expect(endpoint.requests.withLock { $0.count } == 100)
        await endpoint.close()
        await fixture.close()
    }

    @Test func oneTestRunsAtATimeAndOneStoppedWithTheServerFailsWithItsRequestsPending() async throws {
        let (fixture, endpoint, original, _, _) = try await Self.scene(timeout: 300)
        endpoint.answer { _ in nil }  // every request hangs past the timeout
        let body = ["originalTransactionId": original]
        let started = try await fixture.api("POST", "/inApps/v1/messaging/performanceTest", body: body).json()
        let id = try #require(started["requestId"] as? String)
        let again = try await fixture.api("POST", "/inApps/v1/messaging/performanceTest", body: body)
        #expect(again.status == 400)
        #expect(try again.json()["errorCode"] as? Int == 4_000_213)
        let pending = try await fixture.api("GET", "/inApps/v1/messaging/performanceTest/result/\(id)").json()
        #expect(pending["result"] as? String == "PENDING")
        #expect(pending["numPending"] as? Int == 100)
        await fixture.close()
        let uuid = try #require(UUID(uuidString: id))
        let run = try #require(try fixture.store.retention.state().performanceTest(uuid))
        #expect(run.status(at: fixture.clock.now) == .fail)
        #expect((run.outcome?.pending ?? 0) > 0)
        #expect(run.outcome?.failures["TIMED_OUT"] == 100 - (run.outcome?.pending ?? 0))
        await endpoint.close()
    }
}
