/// A parsed JSON text as one flat array of nodes over its source bytes: what `JSONParser` builds.
///
/// A container's node is followed by its contents (an object's key and value nodes alternate)
/// and records the index just past its subtree, so a reader steps over any value in one move.
/// Strings and numbers stay byte ranges of the source until a reader asks for them, so parsing
/// allocates no `String`, `Dictionary` or per-value object at all.
struct JSONTape {
    /// What a node is.
    enum Kind: UInt8 {
        case null, bool, number, string, array, object

        /// A short name of the JSON type, for error messages (`"a string"`, `"null"`, …).
        var typeDescription: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// One value (or object key). 16 bytes: the tape of a 33 MiB catalog is about 26 MiB.
    struct Node {
        var kind: Kind
        /// Strings: `escaped` and `nonASCII`; booleans: `trueValue`.
        var flags: UInt8
        /// Containers: the number of members or elements.
        var count: UInt32
        /// Strings and numbers: the first byte of the text (a string's after its opening quote).
        var start: UInt32
        /// Strings and numbers: the text's length in bytes; containers: the index after the subtree.
        var extent: UInt32

        static let escaped: UInt8 = 1
        static let nonASCII: UInt8 = 2
        static let trueValue: UInt8 = 1

        /// A string of ASCII without escapes: its bytes are its characters, compared byte for byte.
        var isPlainASCII: Bool { flags & (Self.escaped | Self.nonASCII) == 0 }
    }

    var nodes: [Node] = []

    /// Reads the tape in place: `body` gets the root over `bytes`, the text the tape was parsed from.
    ///
    /// Elements hold unsafe pointers into the tape and the bytes, so they must not escape `body`;
    /// everything a reader keeps is materialized (`String`, `JSONValue`) first.
    func withRoot<R>(over bytes: UnsafeBufferPointer<UInt8>, _ body: (JSONElement) -> R) -> R {
        nodes.withUnsafeBufferPointer { nodes in body(JSONElement(nodes: nodes, bytes: bytes, index: 0)) }
    }

    /// The text of a string whose escapes the parser has already checked: `\uXXXX` pairs are
    /// valid, so nothing here can fail (anything else would become U+FFFD, never a trap).
    static func unescape(_ text: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            let b = text[i]
            guard b == UInt8(ascii: "\\"), i + 1 < text.count else {
                out.append(b)
                i += 1
                continue
            }
            let e = text[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(text, at: i) ?? 0xFFFD
                i += 4
                if scalar >= 0xD800, scalar <= 0xDBFF, i + 6 <= text.count, let low = hex4(text, at: i + 2) {
                    scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (low &- 0xDC00)
                    i += 6
                }
                appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out)
            default: out.append(e)  // `"`, `\` and `/` stand for themselves
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of four hex digits at `i`, or `nil`.
    static func hex4(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt32? {
        guard i >= 0, i + 4 <= text.count else { return nil }
        var value: UInt32 = 0
        for j in i..<(i + 4) {
            let c = text[j]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let v = scalar.value
        switch v {
        case 0..<0x80: out.append(UInt8(v))
        case 0x80..<0x800: out.append(contentsOf: [UInt8(0xC0 | v >> 6), UInt8(0x80 | v & 0x3F)])
        case 0x800..<0x10000:
            out.append(contentsOf: [UInt8(0xE0 | v >> 12), UInt8(0x80 | v >> 6 & 0x3F), UInt8(0x80 | v & 0x3F)])
        default:
            out.append(contentsOf: [
                UInt8(0xF0 | v >> 18), UInt8(0x80 | v >> 12 & 0x3F), UInt8(0x80 | v >> 6 & 0x3F),
                UInt8(0x80 | v & 0x3F),
            ])
        }
    }
}
