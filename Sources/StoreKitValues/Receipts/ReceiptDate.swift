import Foundation

/// The RFC 3339 dates receipts carry as IA5String: `2024-02-23T17:27:16Z`, with optional
/// fractional seconds and a `Z`, `+0100` or `+01:00` offset. Parsed by hand, without a
/// `DateFormatter`, because a large receipt holds tens of thousands of them.
public enum ReceiptDate {
    /// Parses `text`; an empty string is an absent date.
    /// - Returns: the date, or nil when `text` is empty.
    /// - Throws: `ReceiptError.malformed` at `offset` when `text` is not an RFC 3339 date.
    public static func parse(_ text: String, offset: Int = 0) throws(ReceiptError) -> Date? {
        try parse(bytes: Array(text.utf8)[...], offset: offset)
    }

    /// Parses the UTF-8 bytes of a date; no bytes is an absent date.
    /// - Throws: `ReceiptError.malformed` at `offset` when the bytes are not an RFC 3339 date.
    public static func parse(bytes: ArraySlice<UInt8>, offset: Int = 0) throws(ReceiptError) -> Date? {
        if bytes.isEmpty { return nil }
        guard let seconds = secondsSince1970(bytes) else {
            let text = String(decoding: bytes.prefix(40), as: UTF8.self)
            throw .malformed(offset: offset, reason: "\"\(text)\" is not an RFC 3339 date")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Formats `date` the way Apple writes receipt dates: UTC, whole seconds, `Z`.
    public static func format(_ date: Date) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: formattedLength) { bytes in
            format(date, into: bytes)
                ? String(decoding: bytes.prefix(formattedLength), as: UTF8.self)
                : "out-of-range date (\(date.timeIntervalSince1970) s)"
        }
    }

    /// The length of `format(_:)`'s form, `YYYY-MM-DDThh:mm:ssZ`.
    public static let formattedLength = 20

    /// Writes `format(_:)`'s form of `date` into the first `formattedLength` bytes of `bytes`
    /// (listings format a date per row, `storefront history`); `false`, nothing written, for a
    /// date outside years 0000-9999, which this form cannot write (and must not trap on).
    public static func format(_ date: Date, into bytes: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard bytes.count >= formattedLength, seconds.isFinite, seconds >= -62_167_219_200, seconds <= 253_402_300_799,
            let total = Int64(exactly: seconds)
        else { return false }
        let days = floorDivide(total, 86_400)
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        func put(_ value: Int64, _ digits: Int, at offset: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, 4, at: 0)
        put(month, 2, at: 5)
        put(day, 2, at: 8)
        put(secondOfDay / 3600, 2, at: 11)
        put(secondOfDay % 3600 / 60, 2, at: 14)
        put(secondOfDay % 60, 2, at: 17)
        (bytes[4], bytes[7], bytes[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
        (bytes[13], bytes[16], bytes[19]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "Z"))
        return true
    }

    // MARK: - Parsing

    private static func secondsSince1970(_ slice: ArraySlice<UInt8>) -> Double? {
        if let result = slice.withContiguousStorageIfAvailable({ secondsSince1970(buffer: $0) }) { return result }
        return Array(slice).withUnsafeBufferPointer { secondsSince1970(buffer: $0) }
    }

    private static func secondsSince1970(buffer b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        func digits(_ count: Int) -> Int64? {
            guard i + count <= b.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<count {
                let d = b[i]
                guard d >= 0x30, d <= 0x39 else { return nil }
                value = value * 10 + Int64(d - 0x30)
                i += 1
            }
            return value
        }
        func literal(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), literal(0x2d), let month = digits(2), literal(0x2d), let day = digits(2) else {
            return nil
        }
        guard i < b.count, b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20 else { return nil }
        i += 1
        guard let hour = digits(2), literal(0x3a), let minute = digits(2), literal(0x3a), let second = digits(2) else {
            return nil
        }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var fraction = 0.0
        if literal(0x2e) {
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offsetSeconds: Int64 = 0
        guard i < b.count else { return nil }
        switch b[i] {
        case 0x5a, 0x7a:
            i += 1
        case 0x2b, 0x2d:
            let sign: Int64 = b[i] == 0x2d ? -1 : 1
            i += 1
            guard let hours = digits(2) else { return nil }
            _ = literal(0x3a)
            guard let minutes = digits(2), hours <= 23, minutes <= 59 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let local = days * 86_400 + hour * 3600 + minute * 60 + second
        return Double(local - offsetSeconds) + fraction
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    // Howard Hinnant's days-from-civil and its inverse, proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
