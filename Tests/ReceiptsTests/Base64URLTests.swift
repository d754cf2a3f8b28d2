import Foundation
import TestSupport
import Testing
@testable import Receipts

/// Base64url as RFC 7515 §2 defines it: Foundation's base64 with `-` and `_` for `+` and `/`,
/// and no padding.
@Suite struct Base64URLTests {
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func encodingMatchesFoundationsBase64WithTheURLAlphabetForEveryLength() {
        var generator = SeededGenerator(state: 13)
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == Self.reference(bytes), "length \(length)")
            #expect(Base64URL.decode(encoded) == bytes, "length \(length)")
        }
    }

    @Test func everyByteValueRoundTrips() {
        let bytes = (0...255).map(UInt8.init) + (0...255).reversed().map(UInt8.init)
        #expect(Base64URL.encode(bytes) == Self.reference(bytes))
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }
}
