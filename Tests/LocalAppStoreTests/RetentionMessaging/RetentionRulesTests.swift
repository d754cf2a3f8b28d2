import Foundation
import TestSupport
import Testing

@testable import LocalAppStore

/// Apple's limits on what a developer uploads, at their edges.
struct RetentionRulesTests {
    static let id = UUID()

    static func content(
        header: String = "h", body: String = "b", image: RetentionMessage.Image? = nil, position: String? = nil,
        bullets: [RetentionMessage.BulletPoint] = []
    ) -> RetentionMessage.Content {
        .init(header: header, body: body, image: image, rawHeaderPosition: position, bulletPoints: bullets)
    }

    @Test func textsUpToTheirLimitsPassAndOneMoreCharacterFails() throws {
        let bullet = RetentionMessage.BulletPoint(
            text: String(repeating: "b", count: 66), imageIdentifier: Self.id, altText: "a")
        try RetentionRules.checkContent(
            Self.content(
                header: String(repeating: "h", count: 66), body: String(repeating: "b", count: 144),
                image: .init(imageIdentifier: Self.id, altText: String(repeating: "a", count: 150)),
                position: "ABOVE_IMAGE", bullets: Array(repeating: bullet, count: 5)))
        #expect(throws: RetentionMessagingError.headerTooLong(67)) {
            try RetentionRules.checkContent(Self.content(header: String(repeating: "h", count: 67)))
        }
        #expect(throws: RetentionMessagingError.bodyTooLong(145)) {
            try RetentionRules.checkContent(Self.content(body: String(repeating: "b", count: 145)))
        }
        #expect(throws: RetentionMessagingError.altTextTooLong(151)) {
            try RetentionRules.checkContent(
                Self.content(image: .init(imageIdentifier: Self.id, altText: String(repeating: "a", count: 151))))
        }
        #expect(throws: RetentionMessagingError.tooManyBulletPoints(6)) {
            try RetentionRules.checkContent(Self.content(bullets: Array(repeating: bullet, count: 6)))
        }
        #expect(throws: RetentionMessagingError.bulletPointTextTooLong(67)) {
            let long = RetentionMessage.BulletPoint(
                text: String(repeating: "b", count: 67), imageIdentifier: Self.id, altText: "a")
            try RetentionRules.checkContent(Self.content(bullets: [long]))
        }
        #expect(throws: RetentionMessagingError.aboveImageRequiresImage) {
            try RetentionRules.checkContent(Self.content(position: "ABOVE_IMAGE"))
        }
    }

    @Test func lengthsCountUnicodeScalarsAsApplesLibrariesDo() throws {
        // 👍🏽 is one character and two scalars: 33 of them are 66 scalars, 34 are 68.
        try RetentionRules.checkContent(Self.content(header: String(repeating: "👍🏽", count: 33)))
        #expect(throws: RetentionMessagingError.headerTooLong(68)) {
            try RetentionRules.checkContent(Self.content(header: String(repeating: "👍🏽", count: 34)))
        }
    }

    @Test func imageSizesFollowTheirClass() throws {
        _ = try RetentionRules.checkImage(PNGFile.make(width: 3840, height: 160), size: .fullSize)
        _ = try RetentionRules.checkImage(PNGFile.make(width: 64, height: 64), size: .bulletPoint)
        #expect(
            throws: RetentionMessagingError.invalidImage(
                "a FULL_SIZE image is 3840 pixels wide and 160 to 2160 high; this one is 3840×159")
        ) { try RetentionRules.checkImage(PNGFile.make(width: 3840, height: 159), size: .fullSize) }
        #expect(
            throws: RetentionMessagingError.invalidImage(
                "a FULL_SIZE image is 3840 pixels wide and 160 to 2160 high; this one is 1920×1080")
        ) { try RetentionRules.checkImage(PNGFile.make(width: 1920, height: 1080), size: .fullSize) }
        #expect(
            throws: RetentionMessagingError.invalidImage(
                "a BULLET_POINT image is square, 64 to 1024 pixels a side; this one is 64×65")
        ) { try RetentionRules.checkImage(PNGFile.make(width: 64, height: 65), size: .bulletPoint) }
        #expect(throws: RetentionMessagingError.invalidImage("the request has no image")) {
            try RetentionRules.checkImage(Data(), size: .fullSize)
        }
    }

    @Test func localesAreApplesHyphenatedTags() {
        for good in ["en-US", "fr", "zh-Hant-TW", "es-419", "ast", "sr-Latn"] {
            #expect(RetentionRules.isLocale(good), "\(good)")
        }
        for bad in ["en_US", "EN-us", "english", "", "en-", "-US", "en-US-x", "zh-hant-TW", "e"] {
            #expect(!RetentionRules.isLocale(bad), "\(bad)")
        }
    }

    @Test func realtimeURLsAreHTTPSOrLoopbackHTTPOfAtMost256Characters() throws {
        try RetentionRules.checkRealtimeURL("https://example.com/retention")
        try RetentionRules.checkRealtimeURL("http://127.0.0.1:8080/retention")
        try RetentionRules.checkRealtimeURL("http://localhost/r")
        try RetentionRules.checkRealtimeURL("https://e.com/" + String(repeating: "a", count: 242))
        #expect(
            throws: RetentionMessagingError.invalidRealtimeURL(
                "'http://example.com/r' does not begin with https:// (http:// is taken for a loopback host only)")
        ) { try RetentionRules.checkRealtimeURL("http://example.com/r") }
        #expect(throws: RetentionMessagingError.invalidRealtimeURL("it has 257 characters; at most 256 are allowed")) {
            try RetentionRules.checkRealtimeURL("https://e.com/" + String(repeating: "a", count: 243))
        }
        #expect(
            throws: RetentionMessagingError.invalidRealtimeURL(
                "'ftp://x/y' does not begin with https:// (http:// is taken for a loopback host only)")
        ) {
            try RetentionRules.checkRealtimeURL("ftp://x/y")
        }
        #expect(throws: RetentionMessagingError.invalidRealtimeURL("'not a url' is not a URL with a host")) {
            try RetentionRules.checkRealtimeURL("not a url")
        }
    }
}
