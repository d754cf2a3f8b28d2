import Foundation

/// A strict RFC 8259 JSON parser over UTF-8 bytes that never traps on hostile input.
///
/// It exists (instead of `JSONSerialization`) to keep booleans apart from numbers, keep number
/// text exact, reject duplicate keys and invalid UTF-8, bound nesting depth and string length,
/// and report line and column. It builds a `JSONTape` (no `String` or `Dictionary` per value);
/// `Document` materializes a `JSONValue` tree from it for callers that want one.
///
/// One file on purpose: the grammar (values, strings, numbers, containers) reads top to bottom
/// over one cursor, and splitting it would spread one state machine over several files.
struct JSONParser {
    /// Why the bytes are not JSON, with a 1-based line and column.
    struct SyntaxError: Error, Equatable {
        let message: String
        let line: Int
        let column: Int
        /// The text is JSON so far but a string is longer than `maximumStringBytes`.
        var oversized = false
        /// Where the oversized string sits, outermost first (filled in as the error unwinds).
        var path: [PathComponent] = []

        var description: String {
            oversized
                ? "\(message) (line \(line), column \(column))"
                : "not valid JSON: \(message) at line \(line), column \(column)"
        }

        /// `path` as a JSON path such as `$.products[0].productID`.
        var jsonPath: String {
            path.reduce(JSONPath.root) { parent, component in
                switch component {
                case .key(let key): JSONPath.member(key, of: parent)
                case .index(let index): JSONPath.element(index, of: parent)
                }
            }
        }

        /// The error for catalog `file`: at the root for bad JSON, at the string's path when one is too long.
        func catalogError(file: String) -> CatalogError {
            CatalogError(file: file, path: oversized ? jsonPath : JSONPath.root, problem: description)
        }

        func within(_ component: PathComponent) -> SyntaxError {
            guard oversized else { return self }
            var copy = self
            copy.path.insert(component, at: 0)
            return copy
        }
    }

    /// One step of a path into the text: an object member or an array element.
    enum PathComponent: Equatable {
        case key(String)
        case index(Int)
    }

    /// The deepest nesting accepted; deeper input is rejected rather than risking the stack.
    static let maximumDepth = 200

    /// The longest string accepted, in bytes as written (1 MiB). App Store Connect's longest
    /// in-app purchase text is far shorter; this bounds what one value can cost downstream.
    static let maximumStringBytes = 1 << 20

    /// An object of more members than this finds duplicate keys through a `Set`, not by comparing pairs.
    private static let linearKeyCheckLimit = 16

    /// The parsed value and, when it is an object, its member keys in file order.
    struct Document {
        let value: JSONValue
        let rootKeyOrder: [String]
    }

    /// Parses a complete JSON text (UTF-8, an optional byte-order mark is skipped) into a value tree.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> Document {
        let tape = try tape(bytes)
        return tape.withRoot(over: bytes) { root in
            Document(value: root.value, rootKeyOrder: root.members.map { $0.key.string ?? "" })
        }
    }

    /// Parses a complete JSON text held in `bytes`.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Document {
        let result: Result<Document, SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(SyntaxError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a complete JSON text into a tape, to read in place over the same `bytes`.
    /// - Parameter maximumStringBytes: the longest string accepted (the package's own files,
    ///   which no person writes, accept longer ones than catalogs).
    static func tape(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumStringBytes: Int = JSONParser.maximumStringBytes
    ) throws(SyntaxError) -> JSONTape {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw SyntaxError(message: "unexpected end of file, expected a value", line: 1, column: 1)
        }
        guard bytes.count < Int(UInt32.max) else {
            throw SyntaxError(message: "a text of \(bytes.count) bytes is too long", line: 1, column: 1)
        }
        var parser = Cursor(bytes: bytes, base: base, maximumStringBytes: maximumStringBytes)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.index = 3 }
        parser.skipWhitespace()
        try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return JSONTape(nodes: parser.nodes)
    }

    private struct Cursor {
        typealias Node = JSONTape.Node
        let bytes: UnsafeBufferPointer<UInt8>
        let base: UnsafePointer<UInt8>
        var index = 0
        var nodes: [Node] = []
        /// The key nodes of the objects being parsed, innermost last, for the duplicate check.
        var keys: [Int] = []

        let maximumStringBytes: Int

        init(bytes: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, maximumStringBytes: Int) {
            self.bytes = bytes
            self.base = base
            self.maximumStringBytes = maximumStringBytes
            // About one node per 20 bytes in a pretty-printed catalog; reserved pages cost nothing until touched.
            nodes.reserveCapacity(bytes.count / 16 + 16)
        }

        func error(_ message: String, at position: Int? = nil) -> SyntaxError {
            let end = min(position ?? index, bytes.count)
            var line = 1
            var column = 1
            var i = 0
            while i < end {
                if bytes[i] == 0x0A {
                    line += 1
                    column = 1
                } else if bytes[i] & 0xC0 != 0x80 {
                    column += 1
                }
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

        mutating func append(_ kind: JSONTape.Kind, flags: UInt8 = 0, start: Int = 0, length: Int = 0) {
            nodes.append(
                Node(
                    kind: kind, flags: flags, count: 0, start: UInt32(truncatingIfNeeded: start),
                    extent: UInt32(truncatingIfNeeded: length)))
        }

        mutating func parseValue(depth: Int) throws(SyntaxError) {
            guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): try parseString()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                append(.bool, flags: Node.trueValue)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                append(.bool)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                append(.null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
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

        mutating func parseObject(depth: Int) throws(SyntaxError) {
            guard let object = try open(.object, closer: "}", depth: depth) else { return }
            let keysBase = keys.count
            defer { keys.removeLast(keys.count - keysBase) }
            var seen: Set<String>?
            var count: UInt32 = 0
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describeByte(at: index)), expected a member name in quotes")
                }
                let keyStart = index
                let key = nodes.count
                try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("unexpected \(describeByte(at: index)), expected ':' after a member name")
                }
                index += 1
                skipWhitespace()
                do throws(SyntaxError) { try parseValue(depth: depth) } catch {
                    throw error.within(.key(string(of: key)))
                }
                try checkUnique(key, keysBase: keysBase, seen: &seen, at: keyStart)
                count += 1
                guard try another(in: object, count: count, closer: "}", "an object") else { return }
            }
        }

        /// Rejects `key` when the object already has it: pairwise for small objects, through a set beyond.
        mutating func checkUnique(
            _ key: Int, keysBase: Int, seen: inout Set<String>?, at keyStart: Int
        ) throws(SyntaxError) {
            if seen == nil, keys.count - keysBase < JSONParser.linearKeyCheckLimit {
                for earlier in keys[keysBase...] where sameString(earlier, key) {
                    throw error("duplicate member name \"\(string(of: key))\"", at: keyStart)
                }
                keys.append(key)
                return
            }
            if seen == nil { seen = Set(keys[keysBase...].map { string(of: $0) }) }
            let text = string(of: key)
            if seen?.insert(text).inserted == false { throw error("duplicate member name \"\(text)\"", at: keyStart) }
        }

        /// Whether string nodes `a` and `b` hold the same string (as Swift compares them).
        func sameString(_ a: Int, _ b: Int) -> Bool {
            let x = nodes[a]
            let y = nodes[b]
            guard x.isPlainASCII, y.isPlainASCII else { return string(of: a) == string(of: b) }
            return x.extent == y.extent && memcmp(base + Int(x.start), base + Int(y.start), Int(x.extent)) == 0
        }

        func string(of node: Int) -> String {
            let node = nodes[node]
            let text = UnsafeBufferPointer(start: base + Int(node.start), count: Int(node.extent))
            return node.flags & Node.escaped != 0 ? JSONTape.unescape(text) : String(decoding: text, as: UTF8.self)
        }

        /// Opens the object or array whose opening bracket is at `index`, `depth` levels deep:
        /// its node, or nil when `closer` ends it at once (closed empty).
        mutating func open(_ kind: JSONTape.Kind, closer: Unicode.Scalar, depth: Int) throws(SyntaxError) -> Int? {
            if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
            let container = nodes.count
            append(kind)
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: closer) else { return container }
            index += 1
            close(container, count: 0)
            return nil
        }

        mutating func close(_ container: Int, count: UInt32) {
            nodes[container].count = count
            nodes[container].extent = UInt32(truncatingIfNeeded: nodes.count)
        }

        /// After a member or an element of `container` (`what`, for messages): `true` when a `,`
        /// says another follows, `false` once `closer` ends it (closed with `count` entries).
        mutating func another(
            in container: Int, count: UInt32, closer: Unicode.Scalar, _ what: String
        ) throws(SyntaxError) -> Bool {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside \(what)") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                return true
            }
            if bytes[index] == UInt8(ascii: closer) {
                index += 1
                close(container, count: count)
                return false
            }
            throw error("unexpected \(describeByte(at: index)), expected ',' or '\(closer)'")
        }

        mutating func parseArray(depth: Int) throws(SyntaxError) {
            guard let array = try open(.array, closer: "]", depth: depth) else { return }
            var count: UInt32 = 0
            while true {
                skipWhitespace()
                do throws(SyntaxError) { try parseValue(depth: depth) } catch { throw error.within(.index(Int(count))) }
                count += 1
                guard try another(in: array, count: count, closer: "]", "an array") else { return }
            }
        }

        mutating func parseNumber() throws(SyntaxError) {
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
            if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") {
                throw error("invalid number, leading zero", at: intStart)
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                if digits(&self) == 0 { throw error("invalid number, expected a digit after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                if digits(&self) == 0 { throw error("invalid number, expected a digit in the exponent") }
            }
            append(.number, start: start, length: index - start)
        }

        /// A word's bytes that end a run of plain ASCII (`"`, a backslash, a control or a non-ASCII byte),
        /// each as its high bit. Exact up to the first such byte, so its trailing zeros find it.
        @inline(__always)
        static func specialBytes(_ word: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let control = (word &- ones &* 0x20) & ~word
            return (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | control | word) & (ones &* 0x80)
        }

        mutating func parseString() throws(SyntaxError) {
            let quote = index
            index += 1
            let start = index
            let count = bytes.count
            var flags: UInt8 = 0
            while true {
                // Plain ASCII eight bytes at a time, and sixteen once a run is long: a cycle or two per word.
                while index + 8 <= count {
                    let special = Self.specialBytes(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    if special != 0 {
                        index += special.trailingZeroBitCount >> 3
                        break
                    }
                    index += 8
                    while index + 16 <= count,
                        Self.specialBytes(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                            | Self.specialBytes(UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self)) == 0
                    {
                        index += 16
                    }
                }
                guard index < count else { throw error("unexpected end of file inside a string") }
                let b = bytes[index]
                if b == UInt8(ascii: "\"") { break }
                if b == UInt8(ascii: "\\") {
                    flags |= Node.escaped
                    try checkEscape()
                    continue
                }
                if b < 0x20 {
                    throw error(
                        "control character (byte 0x\(String(b, radix: 16, uppercase: true))) inside a string; escape it"
                    )
                }
                if b < 0x80 {
                    index += 1
                    continue
                }
                flags |= Node.nonASCII
                try skipUTF8Sequence()
            }
            let length = index - start
            if length > maximumStringBytes {
                var tooLong = error(
                    maximumStringBytes == JSONParser.maximumStringBytes
                        ? "a string of \(length) bytes, longer than the \(maximumStringBytes) bytes (1 MiB) a catalog string may be"
                        : "a string of \(length) bytes, longer than the \(maximumStringBytes) bytes a string may be here",
                    at: quote)
                tooLong.oversized = true
                throw tooLong
            }
            index += 1
            append(.string, flags: flags, start: start, length: length)
        }

        /// Checks the escape at `index` (a backslash) and steps over it; `\u` escapes must pair surrogates.
        mutating func checkEscape() throws(SyntaxError) {
            let at = index
            guard index + 1 < bytes.count else { throw error("unexpected end of file inside a string") }
            let e = bytes[index + 1]
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                guard let scalar = JSONTape.hex4(bytes, at: index + 2) else {
                    throw error("\\u escape needs four hex digits", at: index + 2)
                }
                index += 6
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u"),
                        let low = JSONTape.hex4(bytes, at: index + 2), low >= 0xDC00, low <= 0xDFFF
                    else { throw error("unpaired UTF-16 surrogate in \\u escape", at: index) }
                    index += 6
                } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                    throw error("unpaired UTF-16 surrogate in \\u escape", at: index)
                }
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: at)
            }
        }

        /// Steps over one multi-byte UTF-8 sequence, rejecting malformed, overlong and surrogate forms.
        mutating func skipUTF8Sequence() throws(SyntaxError) {
            let lead = bytes[index]
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
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
    }
}
