import AppStoreServer
import Foundation
import LocalAppStore
import StoreCore
import TestSupport
import Testing

/// The Retention Messaging API over HTTP: what it keeps and answers, and every refusal with
/// Apple's status, code and JSON body, changing nothing.
@Suite(.timeLimit(.minutes(10)))
struct RetentionMessagingEndpointTests {
    static let full = PNGFile.make(width: 3840, height: 160)
    static let bullet = PNGFile.make(width: 64, height: 64)

    static func text(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// PUT Upload Image with `png`.
    static func upload(
        _ fixture: ServerFixture, _ id: String, _ png: Data, size: String? = nil
    ) async throws -> HTTPClient.Answer {
        let query = size.map { "?imageSize=\($0)" } ?? ""
        return try await fixture.client.send(
            "PUT", "/inApps/v1/messaging/image/\(id)\(query)",
            headers: ["Authorization": "Bearer \(try fixture.token())", "Content-Type": "image/png"], body: png)
    }

    @Test func imagesMessagesDefaultsAndTheRealtimeURLRoundTripAndSurviveARestart() async throws {
        let fixture = try await ServerFixture()
        let image = UUID()
        let point = UUID()
        let message = UUID()
        #expect(try await Self.upload(fixture, Self.text(image), Self.full).status == 200)
        #expect(try await Self.upload(fixture, Self.text(point), Self.bullet, size: "BULLET_POINT").status == 200)
        let body: [String: Any] = [
            "header": "Stay with Plus", "body": "Every level stays unlocked.", "headerPosition": "ABOVE_IMAGE",
            "image": ["imageIdentifier": Self.text(image), "altText": "A forest level"],
            "bulletPoints": [["text": "All levels", "imageIdentifier": Self.text(point), "altText": "A star"]],
        ]
        #expect(
            try await fixture.api("PUT", "/inApps/v1/messaging/message/\(Self.text(message))", body: body).status == 200
        )
        #expect(
            try await fixture.api(
                "PUT", "/inApps/v1/messaging/default/\(ServerFixture.monthly)/en-US",
                body: ["messageIdentifier": Self.text(message)]
            ).status == 200)
        #expect(
            try await fixture.api(
                "PUT", "/inApps/v1/messaging/realtime/url", body: ["realtimeURL": "https://example.com/r"]
            )
            .status == 200)
        await fixture.close()

        let again = try await ServerFixture(directory: fixture.scratch)
        let images =
            try await again.api("GET", "/inApps/v1/messaging/image/list").json()["imageIdentifiers"]
            as? [[String: String]]
        #expect(
            Set(images ?? []) == [
                ["imageIdentifier": Self.text(image), "imageState": "APPROVED", "imageSize": "FULL_SIZE"],
                ["imageIdentifier": Self.text(point), "imageState": "APPROVED", "imageSize": "BULLET_POINT"],
            ])
        let messages = try await again.api("GET", "/inApps/v1/messaging/message/list").json()
        #expect(
            messages["messageIdentifiers"] as? [[String: String]] == [
                ["messageIdentifier": Self.text(message), "messageState": "APPROVED"]
            ])
        let configured = try await again.api("GET", "/inApps/v1/messaging/default/\(ServerFixture.monthly)/en-US")
            .json()
        #expect(configured["messageIdentifier"] as? String == Self.text(message))
        let url = try await again.api("GET", "/inApps/v1/messaging/realtime/url").json()
        #expect(url["realtimeURL"] as? String == "https://example.com/r")
        #expect(try again.store.retention.imageData(point) == Self.bullet)
        for path in [
            "/inApps/v1/messaging/realtime/url", "/inApps/v1/messaging/default/\(ServerFixture.monthly)/en-US",
            "/inApps/v1/messaging/message/\(Self.text(message))", "/inApps/v1/messaging/image/\(Self.text(image))",
            "/inApps/v1/messaging/image/\(Self.text(point))",
        ] {
            #expect(try await again.api("DELETE", path).status == 200, "\(path)")
        }
        let emptied = try again.store.retention.state()
        #expect(
            emptied.images.isEmpty && emptied.messages.isEmpty && emptied.defaults.isEmpty
                && emptied.realtimeURLs.isEmpty)
        await again.close()
    }

    @Test func everyRefusalGetsApplesCodeAndBodyAndChangesNothing() async throws {
        let fixture = try await ServerFixture()
        let subscription = try await fixture.buy(ServerFixture.monthly)
        let image = UUID()
        let point = UUID()
        let message = UUID()
        _ = try await Self.upload(fixture, Self.text(image), Self.full)
        _ = try await Self.upload(fixture, Self.text(point), Self.bullet, size: "BULLET_POINT")
        _ = try await fixture.api(
            "PUT", "/inApps/v1/messaging/message/\(Self.text(message))",
            body: ["header": "h", "body": "b", "image": ["imageIdentifier": Self.text(image), "altText": "a"]])
        let before = try fixture.stateFiles()

        let fresh = Self.text(UUID())
        let images: [(String, Data, String?, Int, Int)] = [
            (fresh, Data("GIF89a".utf8), nil, 400, 4_000_161),
            (fresh, PNGFile.make(width: 3840, height: 160, colorType: 6), nil, 400, 4_000_161),
            (fresh, PNGFile.make(width: 1920, height: 1080), nil, 400, 4_000_161),
            (fresh, Self.bullet, "FULL_SIZE", 400, 4_000_161),
            (fresh, Self.full, "HUGE", 400, 4_000_216),
            (fresh, Data(), nil, 400, 4_000_161),
            (Self.text(image), Self.full, nil, 409, 4_090_000),
            ("not-a-uuid", Self.full, nil, 400, 4_000_000),
        ]
        for (id, png, size, status, code) in images {
            let answer = try await Self.upload(fixture, id, png, size: size)
            #expect(answer.status == status, "\(id) \(size ?? "")")
            #expect(try answer.json()["errorCode"] as? Int == code, "\(id) \(size ?? "") \(answer.text)")
        }

        let long = { (n: Int) in String(repeating: "x", count: n) }
        let bullet = ["text": "t", "imageIdentifier": Self.text(point), "altText": "a"]
        let messages: [(String, Any, Int, Int)] = [
            (fresh, ["header": long(67), "body": "b"], 400, 4_000_162),
            (fresh, ["header": "h", "body": long(145)], 400, 4_000_163),
            (
                fresh,
                ["header": "h", "body": "b", "image": ["imageIdentifier": Self.text(image), "altText": long(151)]], 400,
                4_000_175
            ),
            (fresh, ["header": "h", "body": "b", "bulletPoints": Array(repeating: bullet, count: 6)], 400, 4_000_218),
            (
                fresh,
                [
                    "header": "h", "body": "b",
                    "bulletPoints": [["text": long(67), "imageIdentifier": Self.text(point), "altText": "a"]],
                ], 400, 4_000_219
            ),
            (fresh, ["header": "h", "body": "b", "headerPosition": "ABOVE_IMAGE"], 400, 4_000_224),
            (
                fresh, ["header": "h", "body": "b", "image": ["imageIdentifier": fresh, "altText": "a"]], 404, 4_040_014
            ),
            (
                fresh, ["header": "h", "body": "b", "image": ["imageIdentifier": Self.text(point), "altText": "a"]],
                400, 4_000_216
            ),
            (
                fresh,
                [
                    "header": "h", "body": "b",
                    "bulletPoints": [["text": "t", "imageIdentifier": Self.text(image), "altText": "a"]],
                ], 400, 4_000_216
            ),
            (fresh, ["body": "b"], 400, 4_000_000),
            (fresh, ["header": 7, "body": "b"], 400, 4_000_000),
            (Self.text(message), ["header": "h", "body": "b"], 409, 4_090_001),
        ]
        for (id, body, status, code) in messages {
            let answer = try await fixture.api("PUT", "/inApps/v1/messaging/message/\(id)", body: body)
            #expect(answer.status == status, "\(body)")
            #expect(try answer.json()["errorCode"] as? Int == code, "\(body) \(answer.text)")
        }

        let monthly = ServerFixture.monthly
        let requests: [(String, String, Any?, Int, Int)] = [
            ("DELETE", "/inApps/v1/messaging/image/\(fresh)", nil, 404, 4_040_014),
            ("DELETE", "/inApps/v1/messaging/image/\(Self.text(image))", nil, 403, 4_030_019),
            ("DELETE", "/inApps/v1/messaging/message/\(fresh)", nil, 404, 4_040_015),
            (
                "PUT", "/inApps/v1/messaging/default/\(ServerFixture.coins)/en-US",
                ["messageIdentifier": Self.text(message)], 400, 4_000_023
            ),
            (
                "PUT", "/inApps/v1/messaging/default/\(monthly)/en_US", ["messageIdentifier": Self.text(message)], 400,
                4_000_164
            ),
            ("PUT", "/inApps/v1/messaging/default/\(monthly)/en-US", ["messageIdentifier": fresh], 404, 4_040_015),
            ("PUT", "/inApps/v1/messaging/default/\(monthly)/en-US", [String: String](), 400, 4_000_000),
            ("GET", "/inApps/v1/messaging/default/\(monthly)/en-US", nil, 404, 4_040_020),
            ("DELETE", "/inApps/v1/messaging/default/\(monthly)/en-US", nil, 404, 4_040_020),
            ("PUT", "/inApps/v1/messaging/realtime/url", ["realtimeURL": "http://example.com/r"], 400, 4_000_215),
            ("PUT", "/inApps/v1/messaging/realtime/url", ["realtimeURL": "https://e.com/" + long(243)], 400, 4_000_215),
            ("PUT", "/inApps/v1/messaging/realtime/url", [String: String](), 400, 4_000_215),
            ("GET", "/inApps/v1/messaging/realtime/url", nil, 404, 4_040_021),
            ("DELETE", "/inApps/v1/messaging/realtime/url", nil, 404, 4_040_021),
            ("POST", "/inApps/v1/messaging/performanceTest", [String: String](), 400, 4_000_211),
            ("POST", "/inApps/v1/messaging/performanceTest", ["originalTransactionId": "abc"], 400, 4_000_211),
            ("POST", "/inApps/v1/messaging/performanceTest", ["originalTransactionId": "999999"], 404, 4_040_005),
            (
                "POST", "/inApps/v1/messaging/performanceTest",
                ["originalTransactionId": subscription.originalTransactionID], 404, 4_040_021
            ),
            ("GET", "/inApps/v1/messaging/performanceTest/result/not-a-uuid", nil, 400, 4_000_212),
            ("GET", "/inApps/v1/messaging/performanceTest/result/\(fresh)", nil, 404, 4_040_018),
        ]
        for (method, path, body, status, code) in requests {
            let answer = try await fixture.api(method, path, body: body)
            #expect(answer.status == status, "\(method) \(path)")
            #expect(try answer.json()["errorCode"] as? Int == code, "\(method) \(path) \(answer.text)")
            #expect(answer.headers["content-type"] == "application/json")
        }
        #expect(try fixture.stateFiles() == before)
        await fixture.close()
    }

    @Test func theReviewSettingHoldsUploadsUntilTheStoreApprovesThem() async throws {
        let fixture = try await ServerFixture()
        try await fixture.store.settings.set(name: "retention-review", value: "on")
        let image = UUID()
        let message = UUID()
        _ = try await Self.upload(fixture, Self.text(image), Self.full)
        _ = try await fixture.api(
            "PUT", "/inApps/v1/messaging/message/\(Self.text(message))",
            body: ["header": "h", "body": "b", "image": ["imageIdentifier": Self.text(image), "altText": "a"]])
        let list = try await fixture.api("GET", "/inApps/v1/messaging/message/list").json()
        #expect(
            list["messageIdentifiers"] as? [[String: String]] == [
                ["messageIdentifier": Self.text(message), "messageState": "PENDING"]
            ])
        let path = "/inApps/v1/messaging/default/\(ServerFixture.monthly)/en-US"
        let pending = try await fixture.api("PUT", path, body: ["messageIdentifier": Self.text(message)])
        #expect(pending.status == 403)
        #expect(try pending.json()["errorCode"] as? Int == 4_030_017)
        try fixture.store.retention.reviewMessage(message, approve: true)
        let imagePending = try await fixture.api("PUT", path, body: ["messageIdentifier": Self.text(message)])
        #expect(imagePending.status == 403)
        #expect(try imagePending.json()["errorCode"] as? Int == 4_030_018)
        try fixture.store.retention.reviewImage(image, approve: true)
        #expect(try await fixture.api("PUT", path, body: ["messageIdentifier": Self.text(message)]).status == 200)
        try fixture.store.retention.reviewMessage(message, approve: false)
        let rejected = try await fixture.api("GET", "/inApps/v1/messaging/message/list").json()
        #expect(
            rejected["messageIdentifiers"] as? [[String: String]] == [
                ["messageIdentifier": Self.text(message), "messageState": "REJECTED"]
            ])
        await fixture.close()
    }

    @Test func imagesMayBeLargerThanOtherBodiesUpToTheirLimit() async throws {
        let fixture = try await ServerFixture()
        // 3840×400 grey, stored uncompressed: 1.5 MB, over the 1 MiB of other bodies.
        let large = PNGFile.make(width: 3840, height: 400)
        #expect(large.count > 1 << 20)
        #expect(try await Self.upload(fixture, Self.text(UUID()), large).status == 200)
        let before = try fixture.stateFiles()
        let huge = Data(count: RetentionRules.maximumImageBytes + 1)
        #expect(try await Self.upload(fixture, Self.text(UUID()), huge).status == 413)
        let consumption = try await fixture.client.send(
            "PUT", "/inApps/v2/transactions/consumption/1",
            headers: ["Authorization": "Bearer \(try fixture.token())"], body: large)
        #expect(consumption.status == 413)
        #expect(try fixture.stateFiles() == before)
        await fixture.close()
    }

    @Test func productionsRealtimeURLNeedsAPassedPerformanceTest() async throws {
        let fixture = try await ServerFixture(environment: .production)
        let refused = try await fixture.api(
            "PUT", "/inApps/v1/messaging/realtime/url", body: ["realtimeURL": "https://example.com/r"])
        #expect(refused.status == 403)
        #expect(try refused.json()["errorCode"] as? Int == 4_030_026)
        await fixture.close()
    }

    @Test func uploadsAtOnceFromTheServerAndAnotherStoreAreAllKept() async throws {
        let fixture = try await ServerFixture()
        // Another store over the same directory, as another process would open it.
        let other = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: ServerFixture.catalog(),
                stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: fixture.directory),
                initialLatencyMilliseconds: 0))
        let served = (0..<16).map { _ in UUID() }
        let direct = (0..<16).map { _ in UUID() }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for id in served {
                group.addTask {
                    try await Self.upload(fixture, Self.text(id), Self.bullet, size: "BULLET_POINT").status
                }
            }
            for id in direct {
                group.addTask {
                    try other.retention.uploadImage(id, png: Self.bullet, size: .bulletPoint, heldForReview: false)
                    return 200
                }
            }
            for try await status in group { #expect(status == 200) }
        }
        let listed = try fixture.store.retention.state().imageList.map(\.identifier)
        #expect(Set(listed) == Set(served + direct))
        #expect(listed.count == 32)
        await fixture.close()
    }
}
