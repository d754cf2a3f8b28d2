import Foundation
import StoreCore

/// How fast subscriptions run in the local store, with Apple's `SKTestTimeRate` raw values:
/// 0 real time; 1–6 the retired "N is one day" rates; 10–13 and 15 monthly renewals every hour,
/// 30, 15 or 5 minutes or 30 seconds; 1000–1005 one renewal of any length every 15, 5 or
/// 1 minute, 30, 10 or 2 seconds. Billing retry and grace periods scale with the rate.
public struct StoreTimeRate: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    /// A rate by its raw value; nil for a value Apple never defined.
    public init?(rawValue: Int) {
        guard Self.names[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    private init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Subscriptions renew in real time (`SKTestTimeRate.realTime`, 0).
    public static let realTime = StoreTimeRate(0)
    /// A monthly renewal every hour (10).
    public static let monthlyRenewalEveryHour = StoreTimeRate(10)
    /// A monthly renewal every 30 minutes (11).
    public static let monthlyRenewalEveryThirtyMinutes = StoreTimeRate(11)
    /// A monthly renewal every 15 minutes (12).
    public static let monthlyRenewalEveryFifteenMinutes = StoreTimeRate(12)
    /// A monthly renewal every 5 minutes (13).
    public static let monthlyRenewalEveryFiveMinutes = StoreTimeRate(13)
    /// A monthly renewal every 30 seconds (15).
    public static let monthlyRenewalEveryThirtySeconds = StoreTimeRate(15)
    /// One renewal of any period every 15 minutes (1000).
    public static let oneRenewalEveryFifteenMinutes = StoreTimeRate(1000)
    /// One renewal of any period every 5 minutes (1001).
    public static let oneRenewalEveryFiveMinutes = StoreTimeRate(1001)
    /// One renewal of any period every minute (1002).
    public static let oneRenewalEveryMinute = StoreTimeRate(1002)
    /// One renewal of any period every 30 seconds (1003).
    public static let oneRenewalEveryThirtySeconds = StoreTimeRate(1003)
    /// One renewal of any period every 10 seconds (1004).
    public static let oneRenewalEveryTenSeconds = StoreTimeRate(1004)
    /// One renewal of any period every 2 seconds (1005).
    public static let oneRenewalEveryTwoSeconds = StoreTimeRate(1005)

    /// Every rate, in raw-value order.
    public static var all: [StoreTimeRate] { names.keys.sorted().map(StoreTimeRate.init) }

    private static let names: [Int: String] = [
        0: "real-time",
        1: "one-hour-is-one-day", 2: "thirty-minutes-is-one-day", 3: "five-minutes-is-one-day",
        4: "one-minute-is-one-day", 5: "thirty-seconds-is-one-day", 6: "one-second-is-one-day",
        10: "monthly-every-hour", 11: "monthly-every-30-minutes", 12: "monthly-every-15-minutes",
        13: "monthly-every-5-minutes", 15: "monthly-every-30-seconds",
        1000: "every-15-minutes", 1001: "every-5-minutes", 1002: "every-minute",
        1003: "every-30-seconds", 1004: "every-10-seconds", 1005: "every-2-seconds",
    ]

    /// A rate given as a raw value (`15`) or a name (`monthly-every-30-seconds`).
    public init?(parsing text: String) {
        if let raw = Int(text) {
            self.init(rawValue: raw)
        } else if let raw = Self.names.first(where: { $0.value == text.lowercased() })?.key {
            self.init(raw)
        } else {
            return nil
        }
    }

    /// The rate's name, as `store set time-rate` accepts it.
    public var name: String { Self.names[rawValue] ?? String(rawValue) }
    public var description: String { "\(name) (\(rawValue))" }

    /// Real seconds one renewal period of `period` lasts at this rate.
    public func renewalInterval(for period: SubscriptionPeriod) -> TimeInterval {
        switch rawValue {
        case 1000...1005:
            return [900, 300, 60, 30, 10, 2][rawValue - 1000]
        case 10...15:
            // Apple's tables (SKTestSession.TimeRate): a week renews in 15 min, 10 min, 5 min,
            // 3 min or 10 s; longer periods in whole months (a year is twelve months). The
            // 15-minute rate's weekly figure follows the others (its table was not at hand).
            let month: TimeInterval = [10: 3600, 11: 1800, 12: 900, 13: 300, 15: 30][rawValue] ?? 3600
            let week: TimeInterval = [10: 900, 11: 600, 12: 300, 13: 180, 15: 10][rawValue] ?? month / 4
            return switch period.unit {
            case .day: week / 7 * Double(period.value)
            case .week: week * Double(period.value)
            case .month: month * Double(period.value)
            case .year: month * 12 * Double(period.value)
            }
        default:
            return Self.realDuration(of: period) / compression
        }
    }

    /// When a period of `period` that starts at `start` ends: by the calendar in real time,
    /// after `renewalInterval` otherwise.
    public func end(of period: SubscriptionPeriod, startingAt start: Date) -> Date {
        rawValue == 0 ? period.advance(start) : start.addingTimeInterval(renewalInterval(for: period))
    }

    /// Real seconds of grace after a failed renewal, when the catalog enables a grace period.
    public func gracePeriod(for period: SubscriptionPeriod) -> TimeInterval {
        if (1000...1005).contains(rawValue) { return renewalInterval(for: period) }
        let days: Double = period.unit == .week || (period.unit == .day && period.value <= 7) ? 6 : 16
        return days * 86_400 / scaleOfRealTime
    }

    /// Real seconds the store keeps retrying billing before the subscription expires.
    public func billingRetryPeriod(for period: SubscriptionPeriod) -> TimeInterval {
        // Apple's fixed-rate tables: twice the renewal interval (every 2 seconds: 4 s).
        if (1000...1005).contains(rawValue) { return renewalInterval(for: period) * 2 }
        return 60 * 86_400 / scaleOfRealTime
    }

    /// How many times faster than real time store time runs for the retired uniform rates.
    private var compression: Double {
        switch rawValue {
        case 1: 24
        case 2: 48
        case 3: 288
        case 4: 1440
        case 5: 2880
        case 6: 86_400
        default: 1
        }
    }

    /// How much a month shrinks at this rate, for scaling grace and retry periods.
    private var scaleOfRealTime: Double {
        switch rawValue {
        case 10...15:
            Self.realDuration(of: SubscriptionPeriod(value: 1, unit: .month))
                / renewalInterval(for: SubscriptionPeriod(value: 1, unit: .month))
        default: compression
        }
    }

    /// A period's length in real time: a month is 30 days, a year 365.
    static func realDuration(of period: SubscriptionPeriod) -> TimeInterval {
        let day: TimeInterval = 86_400
        return switch period.unit {
        case .day: day * Double(period.value)
        case .week: 7 * day * Double(period.value)
        case .month: 30 * day * Double(period.value)
        case .year: 365 * day * Double(period.value)
        }
    }
}
