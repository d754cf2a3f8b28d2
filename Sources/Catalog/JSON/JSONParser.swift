/// A strict RFC 8259 JSON parser over bytes that never traps on hostile input.
///
/// It exists (instead of `JSONSerialization`) to keep booleans apart from numbers, keep number
/// text exact, reject duplicate keys, bound nesting depth, and report line and column.
struct JSONParser {
    /// Why the bytes are not JSON, with a 1-based line and column.
    struct SyntaxError: Error, Equatable {
        let message: String
        let line: Int
        let column: Int
        var description: String { "not valid JSON: \(message) at line \(line), column \(column)" }
    }

    /// The deepest nesting accepted; deeper input is rejected rather than risking the stack.
    static let maximumDepth = 200

    /// The parsed value and, when it is an object, its member keys in file order.
    struct Document {
        let value: JSONValue
        let rootKeyOrder: [String]
    }

    /// Parses a complete JSON text (UTF-8, an optional byte-order mark is skipped).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> Document {
        var parser = Cursor(bytes: bytes)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return Document(value: value, rootKeyOrder: parser.rootKeyOrder)
    }

    /// Parses a complete JSON text held in `bytes`.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Document {
        let result: Result<Document, SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(SyntaxError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var rootKeyOrder: [String] = []
        var scratch: [UInt8] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ message: String, at position: Int? = nil) -> SyntaxError {
            let end = min(position ?? index, bytes.count)
            var line = 1, column = 1, i = 0
            while i < end {
                if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            return SyntaxError(message: message, line: line, column: column)
        }

        func describeByte(at i: Int) -> String {
            guard i < bytes.count else { return "end of file" }
            let b = bytes[i]
            if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
            return "byte 0x\(String(b, radix: 16, uppercase: true))"
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
            guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw error("unexpected \(describeByte(at: index)), expected a value")
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
            let start = index
            let count = literal.utf8CodeUnitCount
            guard bytes.count - index >= count else { throw error("unexpected end of file in a literal") }
            for i in 0..<count where bytes[index + i] != literal.utf8Start[i] {
                throw error("invalid literal, expected \(literal)", at: start)
            }
            index += count
        }

        mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
            if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
            index += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describeByte(at: index)), expected a member name in quotes")
                }
                let keyStart = index
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("unexpected \(describeByte(at: index)), expected ':' after a member name")
                }
                index += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                if members.updateValue(value, forKey: key) != nil {
                    throw error("duplicate member name \"\(key)\"", at: keyStart)
                }
                if depth == 1 { rootKeyOrder.append(key) }
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of file inside an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                throw error("unexpected \(describeByte(at: index)), expected ',' or '}'")
            }
        }

        mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
            if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of file inside an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                throw error("unexpected \(describeByte(at: index)), expected ',' or ']'")
            }
        }

        mutating func parseNumber() throws(SyntaxError) -> String {
            let start = index
            func digits(_ cursor: inout Cursor) -> Int {
                let from = cursor.index
                while cursor.index < cursor.bytes.count,
                    cursor.bytes[cursor.index] >= UInt8(ascii: "0"), cursor.bytes[cursor.index] <= UInt8(ascii: "9")
                {
                    cursor.index += 1
                }
                return cursor.index - from
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let intStart = index
            let intDigits = digits(&self)
            if intDigits == 0 { throw error("invalid number, expected a digit") }
            if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") { throw error("invalid number, leading zero", at: intStart) }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                if digits(&self) == 0 { throw error("invalid number, expected a digit after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                if digits(&self) == 0 { throw error("invalid number, expected a digit in the exponent") }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        mutating func parseString() throws(SyntaxError) -> String {
            index += 1
            let start = index
            var hasEscapes = false
            while true {
                guard index < bytes.count else { throw error("unexpected end of file inside a string") }
                let b = bytes[index]
                if b == UInt8(ascii: "\"") { break }
                if b == UInt8(ascii: "\\") {
                    hasEscapes = true
                    index += 2
                    continue
                }
                if b < 0x20 { throw error("control character (byte 0x\(String(b, radix: 16, uppercase: true))) inside a string; escape it") }
                if b < 0x80 { index += 1; continue }
                try skipUTF8Sequence()
            }
            let end = index
            index += 1
            if !hasEscapes {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            }
            return try unescape(from: start, to: end)
        }

        /// Steps over one multi-byte UTF-8 sequence, rejecting malformed, overlong and surrogate forms.
        mutating func skipUTF8Sequence() throws(SyntaxError) {
            let lead = bytes[index]
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: throw error("invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true))")
            }
            guard bytes.count - index >= length else { throw error("truncated UTF-8 sequence") }
            let second = bytes[index + 1]
            guard second >= lower, second <= upper else { throw error("invalid UTF-8 sequence") }
            var i = 2
            while i < length {
                guard bytes[index + i] & 0xC0 == 0x80 else { throw error("invalid UTF-8 sequence") }
                i += 1
            }
            index += length
        }

        mutating func unescape(from start: Int, to end: Int) throws(SyntaxError) -> String {
            scratch.removeAll(keepingCapacity: true)
            var i = start
            while i < end {
                let b = bytes[i]
                guard b == UInt8(ascii: "\\") else { scratch.append(b); i += 1; continue }
                guard i + 1 < end else { throw error("unfinished escape", at: i) }
                let e = bytes[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(at: i, end: end)
                    i += 4
                    if scalar >= 0xD800, scalar <= 0xDBFF {
                        guard i + 6 <= end, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired UTF-16 surrogate in \\u escape", at: i)
                        }
                        let low = try hex4(at: i + 2, end: end)
                        guard low >= 0xDC00, low <= 0xDFFF else { throw error("unpaired UTF-16 surrogate in \\u escape", at: i) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                        throw error("unpaired UTF-16 surrogate in \\u escape", at: i)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape", at: i) }
                    scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: i - 2)
                }
            }
            return String(decoding: scratch, as: UTF8.self)
        }

        func hex4(at i: Int, end: Int) throws(SyntaxError) -> UInt32 {
            guard i + 4 <= end else { throw error("\\u escape needs four hex digits", at: i) }
            var value: UInt32 = 0
            for j in i..<(i + 4) {
                let c = bytes[j]
                let digit: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
                default: throw error("\\u escape needs four hex digits", at: j)
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}
