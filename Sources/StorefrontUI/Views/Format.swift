import Foundation
import StoreKitValues

/// Pure formatting of sizes, rates, durations, dates and periods for the views.
enum Format {
    /// `1.5 MB`, `812 KB`, `12 B` (decimal units, as the App Store shows sizes).
    static func bytes(_ count: Int64) -> String {
        let value = Double(max(0, count))
        if value >= 1_000_000_000 { return String(format: "%.1f GB", value / 1_000_000_000) }
        if value >= 1_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
        if value >= 1_000 { return String(format: "%.0f KB", value / 1_000) }
        return "\(Int(value)) B"
    }

    /// `1.2 MB/s`.
    static func rate(_ bytesPerSecond: Double) -> String {
        guard bytesPerSecond.isFinite, bytesPerSecond > 0 else { return "—" }
        return bytes(Int64(bytesPerSecond)) + "/s"
    }

    /// `7s`, `2m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "—" }
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s)s" }
        if s < 3600 { return String(format: "%dm%02ds", s / 60, s % 60) }
        return String(format: "%dh%02dm", s / 3600, (s % 3600) / 60)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// `2026-12-01` (UTC).
    static func day(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// `2026-12-01 14:05` (UTC).
    static func minute(_ date: Date) -> String {
        day(date) + " " + hourMinute(date)
    }

    /// `14:05` (UTC).
    static func hourMinute(_ date: Date) -> String {
        let c = utc.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    /// `14:05:09` (UTC).
    static func clock(_ date: Date) -> String {
        let c = utc.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// When a subscription ends: the day; within two days of `now` the time too, to the second
    /// within an hour (accelerated renewals come seconds apart), and only the time on the
    /// same day as `now`.
    static func until(_ date: Date, now: Date?) -> String {
        guard let now, abs(date.timeIntervalSince(now)) < 2 * 86_400 else { return day(date) }
        let time = abs(date.timeIntervalSince(now)) < 3_600 ? clock(date) : hourMinute(date)
        return day(date) == day(now) ? time : day(date) + " " + time
    }

    /// `55%`: a fraction rounded down, so 100 % means done.
    static func percent(_ fraction: Double) -> String {
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        return "\(Int((clamped * 100).rounded(.down)))%"
    }

    /// The spinner frame for a tick count.
    static func spinner(_ tick: Int) -> Character {
        let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        return frames[((tick % frames.count) + frames.count) % frames.count]
    }
}
