import Foundation

/// JSON text appended to a byte array, written as Foundation's `JSONEncoder` with its default
/// options writes each value: strings with `"`, `\`, `/` and the control characters escaped
/// (`\b \f \n \r \t`, the rest `\u00XX` in lowercase hex) and every other byte as it is;
/// integers in decimal; floating-point numbers as Swift prints them without a trailing `.0`;
/// `Decimal` as its description. `/` is written as it is when `escapesSlashes` is false
/// (`JSONEncoder`'s `.withoutEscapingSlashes`).
struct JSONTextWriter {
    var bytes: [UInt8]
    var escapesSlashes = true

    /// Appends `text` between quotes, escaped.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(bytes: $0) }
    }

    /// Appends UTF-8 `utf8` between quotes, escaped; the plain runs between escapes are copied
    /// whole, and eight bytes at a time are passed over while none of them needs an escape (a
    /// signed transaction's few kilobytes need none).
    mutating func string(bytes utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        var start = 0
        var index = 0
        let count = utf8.count
        while index < count {
            if count - index >= 8, let base = utf8.baseAddress,
                !needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapesSlashes) else { continue }
            if index - 1 > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<(index - 1)])) }
            start = index
            bytes.append(0x5C)
            switch byte {
            case 0x22, 0x5C, 0x2F: bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        if count > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        bytes.append(0x22)
    }

    /// Whether any of the eight bytes of `word` needs an escape: one below 0x20, or a `"`, a `\`
    /// or (when slashes are escaped) a `/`. Each test sets a byte's high bit where the byte
    /// matches (bytes of 0x80 and above never do); any set bit means one did.
    private func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func anyZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        var found = (word &- ones &* 0x20) & ~word & highs
        found |= anyZeroByte(word ^ (ones &* 0x22)) | anyZeroByte(word ^ (ones &* 0x5C))
        if escapesSlashes { found |= anyZeroByte(word ^ (ones &* 0x2F)) }
        return found != 0
    }

    /// Appends a signed integer in decimal.
    mutating func integer(_ value: some BinaryInteger & SignedInteger) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(UInt64(value.magnitude))
        } else {
            unsigned(UInt64(value))
        }
    }

    /// Appends an unsigned integer in decimal, without building a `String`.
    mutating func unsigned(_ value: UInt64) {
        if value < 10 {
            bytes.append(0x30 + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            while rest > 0 {
                buffer[31 - count] = 0x30 + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(32 - count)...]))
        }
    }

    /// Appends a finite floating-point number as `JSONEncoder` does: its description, an
    /// integral value without the `.0`.
    mutating func number(_ value: some BinaryFloatingPoint & LosslessStringConvertible) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a literal (`true`, `null`, punctuation).
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
