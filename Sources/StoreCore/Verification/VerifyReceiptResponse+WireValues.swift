import Foundation
internal import Receipts

extension VerifyReceiptResponse {
    /// A date as `verifyReceipt` sends it in a `…_ms` member: milliseconds since 1970, as a
    /// string. The text is kept as it came; `date` reads it.
    public struct Milliseconds: RawRepresentable, Codable, Hashable, Sendable {
        /// The wire text, e.g. `"1521150082000"`.
        public var rawValue: String

        /// Wraps the wire text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The wire text of `date`, to the millisecond.
        public init(_ date: Date) {
            rawValue = String(date.appStoreMilliseconds)
        }

        /// The date, when the text is a whole number of milliseconds.
        public var date: Date? {
            Int64(rawValue).map(Date.init(appStoreMilliseconds:))
        }

        /// Decodes the wire string (a bare number is accepted too, as some relays send it).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                rawValue = text
            } else {
                rawValue = String(try container.decode(Int64.self))
            }
        }

        /// Encodes the wire string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// A yes-or-no as `verifyReceipt` sends it: the string `"true"` or `"false"`. The text is
    /// kept as it came; `isTrue` reads it.
    public struct Flag: RawRepresentable, Codable, Hashable, Sendable {
        /// The wire text.
        public var rawValue: String

        /// Wraps the wire text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The wire text of `value`.
        public init(_ value: Bool) { rawValue = value ? "true" : "false" }

        /// `true` for `"true"` (or `"1"`), `false` for `"false"` (or `"0"`), nil for anything else.
        public var isTrue: Bool? {
            switch rawValue {
            case "true", "1": true
            case "false", "0": false
            default: nil
            }
        }

        /// Decodes the wire string (a bare boolean is accepted too).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                rawValue = text
            } else {
                rawValue = try container.decode(Bool.self) ? "true" : "false"
            }
        }

        /// Encodes the wire string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
