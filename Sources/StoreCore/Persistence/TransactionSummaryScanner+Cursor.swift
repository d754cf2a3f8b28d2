import Foundation

extension TransactionSummaryScanner {
    /// A position in the JSON text; every method returns `nil`/`false` at anything outside the
    /// subset, leaving the position undefined.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        /// Nesting deeper than this is left to `JSONDecoder`.
        static let maximumDepth = 64

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        /// Consumes `byte` after optional white space.
        mutating func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// An object, each member's key handed to `member`, which consumes its value.
        mutating func object(depth: Int, member: (UnsafeBufferPointer<UInt8>, inout Cursor) -> Bool) -> Bool {
            guard depth < Self.maximumDepth, expect(UInt8(ascii: "{")) else { return false }
            return elements(until: UInt8(ascii: "}")) { cursor in
                guard cursor.expect(UInt8(ascii: "\"")), let key = cursor.plainStringBody(),
                    cursor.expect(UInt8(ascii: ":"))
                else {
                    return false
                }
                cursor.skipSpace()
                return member(key, &cursor)
            }
        }

        /// The elements of an object or array whose opening bracket was consumed, each consumed
        /// by `element`, separated by commas, up to and including `close`.
        @inline(__always)
        private mutating func elements(until close: UInt8, _ element: (inout Cursor) -> Bool) -> Bool {
            skipSpace()
            if position < bytes.count, bytes[position] == close {
                position += 1
                return true
            }
            while true {
                guard element(&self) else { return false }
                skipSpace()
                guard position < bytes.count else { return false }
                let next = bytes[position]
                position += 1
                if next == close { return true }
                guard next == UInt8(ascii: ",") else { return false }
            }
        }

        /// The bytes of a string whose opening quote was consumed, when it holds only printable
        /// ASCII and no escape; the closing quote is consumed.
        mutating func plainStringBody() -> UnsafeBufferPointer<UInt8>? {
            let start = position
            skipPlainRun()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            position += 1
            return UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
        }

        /// A string value in the plain subset, made by `make` from its bytes.
        mutating func plainString(
            _ make: (UnsafeBufferPointer<UInt8>) -> String = { String(decoding: $0, as: UTF8.self) }
        ) -> String? {
            guard expect(UInt8(ascii: "\"")), let body = plainStringBody() else { return nil }
            return make(body)
        }

        /// The extent of a JSON number (its grammar checked), and whether it is a plain integer.
        mutating func numberText() -> (text: UnsafeBufferPointer<UInt8>, integer: Bool)? {
            let start = position
            var integer = true
            func digits(_ cursor: inout Cursor) -> Int {
                let from = cursor.position
                while cursor.position < cursor.bytes.count, (0x30...0x39).contains(cursor.bytes[cursor.position]) {
                    cursor.position += 1
                }
                return cursor.position - from
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                guard digits(&self) > 0 else { return nil }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                integer = false
                guard digits(&self) > 0 else { return nil }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                integer = false
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard digits(&self) > 0 else { return nil }
            }
            return (UnsafeBufferPointer(rebasing: bytes[start..<position]), integer)
        }

        /// A finite number (`Double`'s own correctly rounded parse, as `JSONDecoder`'s).
        mutating func number() -> Double? {
            guard let (text, _) = numberText(), let value = Double(String(decoding: text, as: UTF8.self)),
                value.isFinite
            else {
                return nil
            }
            return value
        }

        /// A plain integer that fits an `Int` with room to spare.
        mutating func integer() -> Int? {
            guard let (text, integer) = numberText(), integer, text.count <= 18 else { return nil }
            return Int(String(decoding: text, as: UTF8.self))
        }

        /// Skips any JSON value, checking its grammar; strings may hold escapes here, but only ASCII.
        mutating func skipValue(depth: Int) -> Bool {
            skipSpace()
            guard position < bytes.count, depth < Self.maximumDepth else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return skipStringBody()
            case UInt8(ascii: "{"):
                return object(depth: depth) { _, cursor in cursor.skipValue(depth: depth + 1) }
            case UInt8(ascii: "["):
                position += 1
                return elements(until: UInt8(ascii: "]")) { cursor in cursor.skipValue(depth: depth + 1) }
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return numberText() != nil
            }
        }

        /// Skips a string whose opening quote was consumed: escapes checked, ASCII only.
        private mutating func skipStringBody() -> Bool {
            while position < bytes.count {
                skipPlainRun()
                guard position < bytes.count else { return false }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { return false }
                    let escaped = bytes[position]
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        // A \u escape may name a lone surrogate, which only JSONDecoder judges.
                        return false
                    default:
                        return false
                    }
                default:
                    guard byte >= 0x20, byte < 0x80 else { return false }
                }
            }
            return false
        }

        /// Moves to the first byte from here on that needs a closer look in a string (a quote, a
        /// backslash, a control character or one beyond ASCII), or to the end: 32 bytes a step
        /// while none is there, then the exact byte. Each word's test is the exact "some byte is
        /// zero / below n" of whole-word arithmetic, whose lowest flagged byte is the first such
        /// byte (a borrow only flags bytes above a true one), so the position is exact.
        private mutating func skipPlainRun() {
            guard let base = bytes.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            while bytes.count - position >= 32 {
                let a = Self.special(raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let b = Self.special(raw.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self))
                let c = Self.special(raw.loadUnaligned(fromByteOffset: position + 16, as: UInt64.self))
                let d = Self.special(raw.loadUnaligned(fromByteOffset: position + 24, as: UInt64.self))
                if a | b | c | d != 0 {
                    if a != 0 {
                        position += a.trailingZeroBitCount / 8
                    } else if b != 0 {
                        position += 8 + b.trailingZeroBitCount / 8
                    } else if c != 0 {
                        position += 16 + c.trailingZeroBitCount / 8
                    } else {
                        position += 24 + d.trailingZeroBitCount / 8
                    }
                    return
                }
                position += 32
            }
            while bytes.count - position >= 8 {
                let word = Self.special(raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                if word != 0 {
                    position += word.trailingZeroBitCount / 8
                    return
                }
                position += 8
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return }
                position += 1
            }
        }

        /// The high bit set in each byte of `word` that is a quote, a backslash, below 0x20 or
        /// above 0x7F (and possibly in bytes above such a byte, never below the first one).
        @inline(__always)
        private static func special(_ word: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // Below 0x20: the subtraction borrows into the high bit; above 0x7F: the high bit is set.
            let outside = (word &- ones &* 0x20) | word
            return (outside | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & 0x8080_8080_8080_8080
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - position >= count,
                Self.equal(UnsafeBufferPointer(rebasing: bytes[position..<(position + count)]), word)
            else {
                return false
            }
            position += count
            return true
        }

        /// Whether `bytes` are `string`'s UTF-8.
        static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ string: String) -> Bool {
            var string = string
            return string.withUTF8 { text in
                guard text.count == bytes.count else { return false }
                guard let a = text.baseAddress, let b = bytes.baseAddress else { return true }
                return memcmp(a, b, bytes.count) == 0
            }
        }

        /// Whether `bytes` are `word`'s.
        static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
            guard bytes.count == word.utf8CodeUnitCount else { return false }
            let start = word.utf8Start
            for index in 0..<bytes.count where bytes[index] != start[index] { return false }
            return true
        }
    }
}
