import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// The retention messaging part of the store: what it keeps, what it refuses, and that its
/// state survives a restart and a failed write leaves it as it was.
struct RetentionMessagingTests {
    static let full = PNGFile.make(width: 3840, height: 160)
    static let bullet = PNGFile.make(width: 64, height: 64)

    static func part(
        _ directory: TemporaryDirectory, fileSystem: any FileSystem = POSIXFileSystem(),
        clock: ManualClock = ManualClock()
    ) throws -> RetentionMessaging {
        try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: try TestCatalog.load(), stateDirectory: directory.stateDirectory, clock: clock,
                initialLatencyMilliseconds: 0
            ).keeping(through: fileSystem)
        ).retention
    }

    @Test func uploadsListReviewsAndSurvivesARestart() throws {
        let directory = try TemporaryDirectory(prefix: "Retention")
        let clock = ManualClock()
        let retention = try Self.part(directory, clock: clock)
        let image = UUID()
        let point = UUID()
        let message = UUID()
        try retention.uploadImage(image, png: Self.full, size: .fullSize, heldForReview: false)
        clock.advance(by: 1)
        try retention.uploadImage(point, png: Self.bullet, size: .bulletPoint, heldForReview: true)
        let content = RetentionMessage.Content(
            header: "Stay", body: "Everything stays unlocked.",
            image: .init(imageIdentifier: image, altText: "A forest"), rawHeaderPosition: nil,
            bulletPoints: [.init(text: "All levels", imageIdentifier: point, altText: "A star")])
        try retention.uploadMessage(message, content: content, heldForReview: true)

        let reopened = try Self.part(directory).state()
        #expect(reopened.imageList.map(\.identifier) == [image, point])
        #expect(reopened.image(image)?.state == .approved && reopened.image(point)?.state == .pending)
        #expect(reopened.image(image).map { ($0.width, $0.height, $0.byteCount) }! == (3840, 160, Self.full.count))
        #expect(reopened.message(message)?.content == content && reopened.message(message)?.state == .pending)
        #expect(try retention.imageData(image) == Self.full)

        // Held for review: not a default message until it and its images are approved.
        #expect(throws: RetentionMessagingError.messageNotApproved(message, state: "PENDING")) {
            try retention.configureDefault(productID: TestCatalog.monthly, locale: "en-US", messageID: message)
        }
        try retention.reviewMessage(message, approve: true)
        #expect(throws: RetentionMessagingError.imageNotApproved(point, state: "PENDING")) {
            try retention.configureDefault(productID: TestCatalog.monthly, locale: "en-US", messageID: message)
        }
        try retention.reviewImage(point, approve: true)
        try retention.configureDefault(productID: TestCatalog.monthly, locale: "en-US", messageID: message)
        #expect(
            try Self.part(directory).defaultMessage(productID: TestCatalog.monthly, locale: "en-US").messageIdentifier
                == message)

        #expect(throws: RetentionMessagingError.imageInUse(point, messages: [message])) {
            try retention.deleteImage(point)
        }
        try retention.deleteMessage(message)
        #expect(throws: RetentionMessagingError.defaultMessageNotFound(productID: TestCatalog.monthly, locale: "en-US"))
        {
            try retention.defaultMessage(productID: TestCatalog.monthly, locale: "en-US")
        }
        try retention.deleteImage(point)
        let files = try FileManager.default.contentsOfDirectory(atPath: retention.files.imagesDirectory)
        #expect(files == [RetentionState.key(image) + ".png"])
    }

    @Test func refusesWhatApplesAPIRefuses() throws {
        let directory = try TemporaryDirectory(prefix: "Retention")
        let retention = try Self.part(directory)
        let image = UUID()
        let point = UUID()
        try retention.uploadImage(image, png: Self.full, size: .fullSize, heldForReview: false)
        try retention.uploadImage(point, png: Self.bullet, size: .bulletPoint, heldForReview: false)
        #expect(throws: RetentionMessagingError.imageAlreadyExists(image)) {
            try retention.uploadImage(image, png: Self.full, size: .fullSize, heldForReview: false)
        }
        let unknown = UUID()
        #expect(throws: RetentionMessagingError.imageNotFound(unknown)) {
            try retention.uploadMessage(
                UUID(), content: RetentionRulesTests.content(image: .init(imageIdentifier: unknown, altText: "a")),
                heldForReview: false)
        }
        #expect(
            throws: RetentionMessagingError.invalidImageSize(
                "the image \(RetentionState.key(point)) was uploaded as BULLET_POINT, and this place takes FULL_SIZE")
        ) {
            try retention.uploadMessage(
                UUID(), content: RetentionRulesTests.content(image: .init(imageIdentifier: point, altText: "a")),
                heldForReview: false)
        }
        let message = UUID()
        try retention.uploadMessage(message, content: RetentionRulesTests.content(), heldForReview: false)
        #expect(throws: RetentionMessagingError.messageAlreadyExists(message)) {
            try retention.uploadMessage(
                message, content: RetentionRulesTests.content(header: "x", body: "y"), heldForReview: false)
        }
        #expect(throws: RetentionMessagingError.invalidProduct(TestCatalog.coins)) {
            try retention.configureDefault(productID: TestCatalog.coins, locale: "en-US", messageID: message)
        }
        #expect(throws: RetentionMessagingError.invalidLocale("en_US")) {
            try retention.configureDefault(productID: TestCatalog.monthly, locale: "en_US", messageID: message)
        }
        #expect(throws: RetentionMessagingError.messageNotFound(unknown)) { try retention.deleteMessage(unknown) }
        #expect(throws: RetentionMessagingError.realtimeURLNotFound(environment: "Sandbox")) {
            try retention.realtimeURL(environment: .sandbox)
        }
        #expect(throws: RetentionMessagingError.noPassingPerformanceTest) {
            try retention.setRealtimeURL("https://example.com/r", environment: .production)
        }
        try retention.setRealtimeURL("https://example.com/r", environment: .sandbox)
        #expect(try retention.realtimeURL(environment: .sandbox) == "https://example.com/r")
    }

    @Test func productionsURLNeedsAPassedPerformanceTest() throws {
        let directory = try TemporaryDirectory(prefix: "Retention")
        let clock = ManualClock()
        let retention = try Self.part(directory, clock: clock)
        let config = PerformanceTestRun.Config.standard(responseTimeThreshold: 700)
        let run = PerformanceTestRun(
            requestID: UUID(), originalTransactionID: "1", target: "https://e.com/r", config: config, started: clock.now
        )
        #expect(try retention.begin(run) == nil)
        let second = PerformanceTestRun(
            requestID: UUID(), originalTransactionID: "1", target: "https://e.com/r", config: config, started: clock.now
        )
        #expect(try retention.begin(second) == run, "one test at a time")
        try retention.finish(
            performanceTest: run.requestID,
            outcome: .measured(milliseconds: Array(repeating: 10, count: 100), failures: ["TIMED_OUT": 6], total: 100))
        #expect(try retention.state().performanceTest(run.requestID)?.status(at: clock.now) == .fail)
        #expect(throws: RetentionMessagingError.noPassingPerformanceTest) {
            try retention.setRealtimeURL("https://example.com/r", environment: .production)
        }
        let passing = PerformanceTestRun(
            requestID: UUID(), originalTransactionID: "1", target: "https://e.com/r", config: config, started: clock.now
        )
        #expect(try retention.begin(passing) == nil)
        try retention.finish(
            performanceTest: passing.requestID,
            outcome: .measured(milliseconds: Array(repeating: 10, count: 100), failures: ["TIMED_OUT": 5], total: 100))
        try retention.setRealtimeURL("https://example.com/r", environment: .production)
        #expect(try retention.realtimeURL(environment: .production) == "https://example.com/r")
    }

    @Test func aTestWhoseProcessDiedFailsOnceItsTimeIsLongPast() throws {
        let clock = ManualClock()
        let config = PerformanceTestRun.Config.standard(responseTimeThreshold: 700)
        let run = PerformanceTestRun(
            requestID: UUID(), originalTransactionID: "1", target: "https://e.com/r", config: config, started: clock.now
        )
        #expect(config.totalDuration == 7000)
        clock.advance(by: 66)
        #expect(run.status(at: clock.now) == .pending)
        clock.advance(by: 2)
        #expect(run.status(at: clock.now) == .fail)
    }

    @Test func percentilesAreNearestRankAndTheRateCountsEveryRequest() {
        let outcome = PerformanceTestRun.Outcome.measured(
            milliseconds: Array(1...100), failures: ["UNSUCCESSFUL_HTTP_RESPONSE_CODE": 2], total: 100)
        #expect((outcome.average, outcome.p50, outcome.p90, outcome.p95, outcome.p99) == (50, 50, 90, 95, 99))
        #expect(outcome.successRate == 98 && outcome.pending == 0)
        let stopped = PerformanceTestRun.Outcome.measured(milliseconds: [5, 5], failures: [:], total: 10)
        #expect(stopped.successRate == 20 && stopped.pending == 8)
    }

    @Test func theMostImagesAndMessagesAreKeptAndOneMoreIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "Retention")
        let retention = try Self.part(directory)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try retention.files.update { state, _ throws(RetentionMessagingError) in
            for _ in 0..<RetentionRules.maximumImages {
                let id = UUID()
                state.images[RetentionState.key(id)] = RetentionImage(
                    identifier: id, size: .bulletPoint, state: .approved, width: 64, height: 64, byteCount: 1,
                    uploaded: now)
            }
            for _ in 0..<RetentionRules.maximumMessages {
                let id = UUID()
                state.messages[RetentionState.key(id)] = RetentionMessage(
                    identifier: id, content: RetentionRulesTests.content(), rawState: "APPROVED", uploaded: now)
            }
        }
        #expect(throws: RetentionMessagingError.maximumImagesReached(2000)) {
            try retention.uploadImage(UUID(), png: Self.bullet, size: .bulletPoint, heldForReview: false)
        }
        #expect(throws: RetentionMessagingError.maximumMessagesReached(2000)) {
            try retention.uploadMessage(UUID(), content: RetentionRulesTests.content(), heldForReview: false)
        }
    }

    @Test func aFailedWriteLeavesTheStateAsItWas() throws {
        let directory = try TemporaryDirectory(prefix: "Retention")
        let disk = FaultInjectingFileSystem()
        let retention = try Self.part(directory, fileSystem: disk)
        let kept = UUID()
        try retention.uploadImage(kept, png: Self.full, size: .fullSize, heldForReview: false)
        let before = try Data(contentsOf: URL(fileURLWithPath: retention.files.statePath))
        for operation in [FaultInjectingFileSystem.Operation.synchronize, .rename, .write] {
            disk.fail(operation)
            let lost = UUID()
            #expect(throws: RetentionMessagingError.self) {
                try retention.uploadImage(lost, png: Self.bullet, size: .bulletPoint, heldForReview: false)
            }
            disk.heal()
            #expect(try Data(contentsOf: URL(fileURLWithPath: retention.files.statePath)) == before, "\(operation)")
            #expect(try Self.part(directory).state().imageList.map(\.identifier) == [kept])
        }
        // The next write removes what a failed one left behind.
        try retention.reviewImage(kept, approve: true)
        let files = try FileManager.default.contentsOfDirectory(atPath: retention.files.imagesDirectory)
        #expect(files == [RetentionState.key(kept) + ".png"])
    }

    @Test func aStateFromANewerVersionIsReadAndLeftUnchanged() throws {
        let directory = try TemporaryDirectory(prefix: "Retention")
        let retention = try Self.part(directory)
        try retention.setRealtimeURL("https://example.com/r", environment: .sandbox)
        let path = retention.files.statePath
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "\"version\":1", with: "\"version\":2")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try retention.realtimeURL(environment: .sandbox) == "https://example.com/r")
        #expect(
            throws: RetentionMessagingError.io(
                path: path,
                reason:
                    "was written by a newer storefront (format version 2); this one writes version 1 and leaves it unchanged"
            )
        ) { try retention.deleteRealtimeURL(environment: .sandbox) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test func aDamagedStateIsReportedByFileAndMember() throws {
        let directory = try TemporaryDirectory(prefix: "Retention")
        let retention = try Self.part(directory)
        try retention.setRealtimeURL("https://example.com/r", environment: .sandbox)
        let path = retention.files.statePath
        try "{\"format\":\"storefront-retention-messaging\",\"version\":1,\"images\":[]}".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RetentionMessagingError.self) { try retention.state() }
        do {
            _ = try retention.state()
        } catch {
            #expect(error.description.hasPrefix("\(path): is not a retention messaging state: $.images"))
        }
    }
}
