import Foundation

/// Parses prices written as plain decimal text (`"0.99"`, `"1200"`), exactly, never through a float.
enum DecimalText {
    /// Why a text is not a usable price.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// The most digits accepted on either side of the point; real prices have far fewer.
    static let maximumDigits = 18

    /// Parses `text` as a non-negative decimal with digits, an optional point and more digits.
    static func parse(_ text: String) -> Result<Decimal, Problem> {
        let bytes = Array(text.utf8)
        let hint = "expected a decimal such as \"0.99\""
        if bytes.first == UInt8(ascii: "-") {
            return .failure(Problem(message: "negative price \"\(text)\"; prices must be 0 or more"))
        }
        guard let digits = Digits(bytes, separator: UInt8(ascii: ".")) else {
            return .failure(Problem(message: "malformed price \"\(text)\"; \(hint)"))
        }
        let (integerDigits, fractionDigits, seenPoint) = (digits.before, digits.after, digits.isSeparated)
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else {
            return .failure(Problem(message: "malformed price \"\(text)\"; \(hint)"))
        }
        guard integerDigits <= maximumDigits, fractionDigits <= maximumDigits else {
            return .failure(Problem(message: "price \"\(text)\" has too many digits"))
        }
        // Up to 19 digits in all fit a UInt64: the value is built from them, which is exact and
        // ~50× cheaper than `Decimal(string:)` (zero keeps the parser's exponent, so it goes there).
        if integerDigits + fractionDigits <= 19 {
            var significand: UInt64 = 0
            for byte in bytes where byte != UInt8(ascii: ".") {
                significand = significand &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
            }
            if significand != 0 {
                return .success(Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(significand)))
            }
        }
        // No locale: its only use is the decimal separator, `.` without one, as here (a POSIX
        // locale cost a zero price 1.5 M instructions, ICU's locale data loaded to say `.`).
        guard let value = Decimal(string: text) else {
            return .failure(Problem(message: "malformed price \"\(text)\"; \(hint)"))
        }
        return .success(value)
    }

    /// Whether `text` is digits, one comma and digits (`"2,99"`): how a price typed on a Mac set
    /// to a comma locale reads, taken as the decimal point (Docs/formats/storekit-catalog.md).
    static func hasLoneDecimalComma(_ text: String) -> Bool {
        guard let digits = Digits(text.utf8, separator: UInt8(ascii: ",")) else { return false }
        return digits.isSeparated && digits.before > 0 && digits.after > 0
    }

    /// How many digits stand before and after one separator in a text of digits and at most
    /// one separator.
    private struct Digits {
        var before = 0
        var after = 0
        var isSeparated = false

        /// Counts the digits of `bytes`; nil when they hold anything but digits and one `separator`.
        init?(_ bytes: some Sequence<UInt8>, separator: UInt8) {
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if isSeparated { after += 1 } else { before += 1 }
                case separator where !isSeparated:
                    isSeparated = true
                default:
                    return nil
                }
            }
        }
    }

    /// How many digits follow the decimal point in `text` as written.
    static func fractionDigits(_ text: String) -> Int {
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: point, to: text.endIndex) - 1
    }
}
