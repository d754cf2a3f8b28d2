import Foundation

/// A subscription or offer period such as one week or three months, written in ISO 8601 as
/// `P1W`, `P3M`: what a StoreKit configuration file's `recurringSubscriptionPeriod` says and
/// what the engine renews by. Defined once here; `Catalog` and `StoreCore` name it too.
///
/// Xcode writes exactly one component (`P3D`, `P2W`, `P1M`, `P6M`, `P1Y`); combined durations
/// like `P1Y2M` and time parts like `PT1H` are not periods StoreKit knows.
public struct SubscriptionPeriod: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The calendar unit of a period, stored by its name (`day`, `week`, `month`, `year`).
    public enum Unit: String, Codable, Hashable, Sendable, CaseIterable {
        /// Days (ISO 8601 `D`).
        case day
        /// Weeks (ISO 8601 `W`).
        case week
        /// Months (ISO 8601 `M`).
        case month
        /// Years (ISO 8601 `Y`).
        case year

        /// The ISO 8601 designator: `D`, `W`, `M` or `Y`.
        public var designator: Character {
            switch self {
            case .day: "D"
            case .week: "W"
            case .month: "M"
            case .year: "Y"
            }
        }
    }

    /// How many units, at least 1.
    public let value: Int
    /// The unit.
    public let unit: Unit

    /// Creates a period of `value` `unit`s.
    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses an ISO 8601 duration with one component, e.g. `P1M`; `nil` when it is not one.
    ///
    /// - Parameter iso8601: text such as `P3D`, `P1W`, `P1M`, `P1Y`: `P`, one to four ASCII
    ///   digits (not zero), one designator.
    public init?(iso8601: String) {
        let utf8 = Array(iso8601.utf8)
        guard utf8.count >= 3, utf8.count <= 6, utf8[0] == UInt8(ascii: "P"), let last = utf8.last,
            let unit = Unit.allCases.first(where: { $0.designator.asciiValue == last })
        else { return nil }
        let digits = utf8[1..<(utf8.count - 1)]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(String(decoding: digits, as: UTF8.self)), value >= 1
        else { return nil }
        self.init(value: value, unit: unit)
    }

    /// The ISO 8601 form, e.g. `P1M`.
    public var iso8601: String { "P\(value)\(unit.designator)" }

    /// The ISO 8601 form, e.g. `P1M`.
    public var description: String { iso8601 }

    /// The date `count` periods after `date` in the Gregorian calendar, UTC.
    public func advance(_ date: Date, by count: Int = 1) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var components = DateComponents()
        switch unit {
        case .day: components.day = value * count
        case .week: components.day = 7 * value * count
        case .month: components.month = value * count
        case .year: components.year = value * count
        }
        return calendar.date(byAdding: components, to: date) ?? date
    }
}
