import Foundation

/// The text of a compact JWS or JWT as it arrives, before it is split at its dots.
public enum JWSText {
    /// `text` without the white space around it, exactly as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` (or `.whitespaces`) gives it, but
    /// without the copy through `NSString` when nothing is to be trimmed: a text that begins and
    /// ends with a printable ASCII byte (as every JWS does) has no white space at either end.
    public static func trimmingWhitespace(_ text: String, andNewlines: Bool) -> String {
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return text
        }
        return text.trimmingCharacters(in: andNewlines ? .whitespacesAndNewlines : .whitespaces)
    }

    /// `text` split at every `.`, exactly as `text.split(separator: ".", omittingEmptySubsequences: false)`
    /// splits it, without breaking the whole text into grapheme clusters: one pass over its
    /// scalars, splitting at each `.` that is a Character by itself. Whether a `.` joins a
    /// neighbour is decided by that pair alone (the rules that look further, for emoji, flags and
    /// Indic conjuncts, never involve a `.`), so only a pair with a non-ASCII neighbour is asked.
    public static func parts(_ text: String) -> [Substring] {
        let scalars = text.unicodeScalars
        var parts: [Substring] = []
        var start = scalars.startIndex
        var previous: Unicode.Scalar?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == "." {
                let following = next < scalars.endIndex ? scalars[next] : nil
                if stands(previous, following) {
                    parts.append(text[start..<index])
                    start = next
                }
            }
            previous = scalar
            index = next
        }
        parts.append(text[start..<scalars.endIndex])
        return parts
    }

    /// Whether a `.` between `previous` and `following` is a Character of its own.
    private static func stands(_ previous: Unicode.Scalar?, _ following: Unicode.Scalar?) -> Bool {
        if let previous, !previous.isASCII, String(String.UnicodeScalarView([previous, "."])).count != 2 {
            return false
        }
        if let following, !following.isASCII, String(String.UnicodeScalarView([".", following])).count != 2 {
            return false
        }
        return true
    }
}
