import Foundation
import Receipts
import StoreKitValues
import TestSupport
import Testing

/// `JWSText.trimmingWhitespace` gives exactly what Foundation's trimming gives, for text with
/// and without white space (ASCII, Unicode, newlines) at either end.
@Suite struct JWSTextTests {
    @Test func trimmingAgreesWithFoundationForEveryKindOfEnd() {
        let pieces = [
            "a", "Z", "0", ".", "-", "_", "~", "é", "💳", "e\u{301}", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}",
            "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{200B}", "\u{0}", "\u{7F}", "\u{1F}",
        ]
        var generator = SeededGenerator(state: 29)
        var trimmed = 0
        for round in 0..<10_000 {
            let length = Int.random(in: 0...6, using: &generator)
            let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for newlines in [true, false] {
                let expected = text.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
                #expect(
                    JWSText.trimmingWhitespace(text, andNewlines: newlines) == expected,
                    "round \(round), newlines \(newlines): \(text.debugDescription)")
                if expected != text { trimmed += 1 }
            }
        }
        // Both paths were taken: text left as it was, and text trimmed.
        #expect(trimmed > 2_000 && trimmed < 18_000, "\(trimmed) of 20,000 trimmed")
    }

    @Test func aTokenIsReturnedAsItIsAndSpacesAroundItGo() {
        #expect(JWSText.trimmingWhitespace("eyJ.eyJ.sig", andNewlines: true) == "eyJ.eyJ.sig")
        #expect(JWSText.trimmingWhitespace(" eyJ.eyJ.sig\n", andNewlines: true) == "eyJ.eyJ.sig")
        #expect(JWSText.trimmingWhitespace(" eyJ.eyJ.sig\n", andNewlines: false) == "eyJ.eyJ.sig\n")
        #expect(JWSText.trimmingWhitespace("", andNewlines: true) == "")
    }

    @Test func partsAgreeWithSplittingAtEveryDotForASCIIAndForUnicodeText() {
        // A dot followed by a combining mark is one Character, not a dot: Unicode text takes the
        // Character path; ASCII text (with empty parts at either end and between dots) the bytes.
        // Around a dot: combining marks (Extend), a spacing mark, a ZWJ, a Prepend, CR LF, emoji.
        let pieces = [
            "a", "Z", "9", "-", "_", ".", ".", "..", " ", "\u{0}", "é", ".\u{301}", "\u{301}", "💳", "\r\n", "\r",
            "\u{200D}", "\u{903}", "\u{600}", "\u{1F1FA}", "\u{FE0F}", "\u{1100}", "\u{AC00}",
        ]
        var generator = SeededGenerator(state: 31)
        var ascii = 0
        for round in 0..<10_000 {
            let length = Int.random(in: 0...8, using: &generator)
            let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(
                JWSText.parts(text) == text.split(separator: ".", omittingEmptySubsequences: false),
                "round \(round): \(text.debugDescription)")
            if text.utf8.allSatisfy({ $0 < 0x80 }) { ascii += 1 }
        }
        #expect(ascii > 1_000 && ascii < 9_000, "\(ascii) of 10,000 ASCII")
        #expect(JWSText.parts("a.b.c") == ["a", "b", "c"])
        #expect(JWSText.parts(".a.") == ["", "a", ""])
        #expect(JWSText.parts("a.\u{301}b") == ["a.\u{301}b"])
        #expect(JWSText.parts("\u{600}.b") == ["\u{600}.b"])
        #expect(JWSText.parts("a.\u{903}b.c") == ["a.\u{903}b", "c"])
    }
}
