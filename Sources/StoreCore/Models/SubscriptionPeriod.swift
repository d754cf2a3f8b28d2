import Foundation

/// A subscription or offer period such as one week or three months (ISO 8601 `P1W`, `P3M`).
public struct SubscriptionPeriod: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The unit of a period.
    public enum Unit: String, Codable, Hashable, Sendable {
        case day, week, month, year
    }

    public let value: Int
    public let unit: Unit

    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses an ISO 8601 duration of one component (`P3D`, `P1W`, `P6M`, `P1Y`); nil otherwise.
    public init?(iso8601 text: String) {
        guard text.count >= 3, text.first == "P", let last = text.last,
              let value = Int(text.dropFirst().dropLast()), value > 0 else { return nil }
        switch last {
        case "D": self.init(value: value, unit: .day)
        case "W": self.init(value: value, unit: .week)
        case "M": self.init(value: value, unit: .month)
        case "Y": self.init(value: value, unit: .year)
        default: return nil
        }
    }

    /// The ISO 8601 form, e.g. `P1M`.
    public var iso8601: String {
        let letter = switch unit {
        case .day: "D"
        case .week: "W"
        case .month: "M"
        case .year: "Y"
        }
        return "P\(value)\(letter)"
    }

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
