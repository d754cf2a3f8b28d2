import Foundation
import StoreKitValues
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

    /// The decoder as it was, through Foundation: `-` and `_` swapped for `+` and `/`, padding
    /// added, no `=` of the caller's accepted.
    static func foundationDecode(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        switch base64.count % 4 {
        case 2: base64 += "=="
        case 3: base64 += "="
        case 1: return nil
        default: break
        }
        return Data(base64Encoded: base64).map(Array.init)
    }

    @Test func decodingAgreesWithFoundationOnTextThatIsAndIsNotBase64URL() {
        // Mostly the alphabet, with the bytes a hostile token would bring: padding, the standard
        // alphabet's `+` and `/`, white space, a dot, NUL, non-ASCII and a CR LF (one Character).
        let pieces = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".map(String.init))
        let odd = ["+", "/", "=", "==", " ", "\n", "\r\n", ".", "\u{0}", "é", "e\u{301}", "\u{FF0D}", "💳"]
        var generator = SeededGenerator(state: 7)
        var decoded = 0
        for round in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &generator)
            var text = ""
            for _ in 0..<length {
                text +=
                    Int.random(in: 0..<40, using: &generator) == 0
                    ? odd.randomElement(using: &generator)! : pieces.randomElement(using: &generator)!
            }
            let framed = "." + text + "."
            let inner = framed.dropFirst().dropLast()
            let expected = Self.foundationDecode(inner)
            #expect(Base64URL.decode(inner) == expected, "round \(round): \(text.debugDescription)")
            #expect(Base64URL.decode(text) == expected, "round \(round): \(text.debugDescription)")
            if expected != nil { decoded += 1 }
        }
        // Both kinds were met: text that decodes and text that does not.
        #expect(decoded > 1_000 && decoded < 19_000, "\(decoded) of 20,000 decoded")
    }

    @Test func theLastCharactersUnusedBitsAreIgnoredAndALoneCharacterIsRejected() {
        #expect(Base64URL.decode("AB") == [0])
        #expect(Base64URL.decode("AAB") == [0, 0])
        #expect(Base64URL.decode("QUJD") == [65, 66, 67])
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.decode("QUJDR") == nil)
        #expect(Base64URL.decode("QUI=") == nil)
        #expect(Base64URL.decode("QU I") == nil)
    }
}
