/// A subscription or offer period, parsed from an ISO 8601 duration such as `P1W`, `P3M`, `P1Y`.
///
/// Xcode writes exactly one component (`P3D`, `P2W`, `P1M`, `P6M`, `P1Y`); combined
/// durations like `P1Y2M` and time parts like `PT1H` are not periods StoreKit knows.
public struct SubscriptionPeriod: Sendable, Hashable, CustomStringConvertible {
    /// The calendar unit of a period.
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        /// Days (`D`).
        case day = "D"
        /// Weeks (`W`).
        case week = "W"
        /// Months (`M`).
        case month = "M"
        /// Years (`Y`).
        case year = "Y"
    }

    /// How many units, at least 1.
    public var value: Int
    /// The unit.
    public var unit: Unit

    /// Creates a period of `value` `unit`s.
    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses an ISO 8601 duration with one component, e.g. `P1M`; `nil` when it is not one.
    ///
    /// - Parameter iso8601: text such as `P3D`, `P1W`, `P1M`, `P1Y`.
    public init?(iso8601: String) {
        let utf8 = Array(iso8601.utf8)
        guard utf8.count >= 3, utf8.count <= 6, utf8[0] == UInt8(ascii: "P"),
            let last = utf8.last, let unit = Unit(rawValue: String(UnicodeScalar(last)))
        else { return nil }
        let digits = utf8[1..<(utf8.count - 1)]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(String(decoding: digits, as: UTF8.self)), value >= 1
        else { return nil }
        self.init(value: value, unit: unit)
    }

    /// The ISO 8601 form, e.g. `P1M`.
    public var iso8601: String { "P\(value)\(unit.rawValue)" }

    /// The ISO 8601 form, e.g. `P1M`.
    public var description: String { iso8601 }
}
