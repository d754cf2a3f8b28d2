import Foundation

/// How the store retries a notification its receiver did not accept (`notification-retries`),
/// stored raw so a newer value survives an older build.
public struct NotificationRetryPolicy: RawRepresentable, Codable, Hashable, Sendable, CaseIterable {
    /// The policy's name, as `store set notification-retries` takes it.
    public let rawValue: String
    /// Wraps a name, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Apple's production servers: five retries, at 1, 12, 24, 48 and 72 hours after the
    /// previous attempt.
    public static let production = NotificationRetryPolicy(rawValue: "production")
    /// Apple's sandbox: one attempt, never retried.
    public static let sandbox = NotificationRetryPolicy(rawValue: "sandbox")
    /// Nothing is sent on its own: notifications wait in the journal for
    /// `store notifications resend UUID`, which makes one attempt.
    public static let off = NotificationRetryPolicy(rawValue: "off")

    /// The policies this build knows, in the order `store settings` offers them.
    public static var allCases: [NotificationRetryPolicy] { [.production, .sandbox, .off] }

    /// Apple's production schedule: each retry's delay after the previous attempt, in hours.
    public static let productionRetryHours: [Double] = [1, 12, 24, 48, 72]

    /// When the attempt after `attempts` attempts (the last one failed at `lastAttempt`) is
    /// due, on the store clock at `rate`; nil when there is none.
    /// - Parameters:
    ///   - attempts: attempts made so far (at least one).
    ///   - lastAttempt: when the last one was made.
    ///   - rate: the store's time rate, which scales the hours as it scales subscription periods.
    public func nextAttempt(after attempts: Int, lastAttempt: Date, rate: StoreTimeRate) -> Date? {
        guard self == .production, attempts >= 1, attempts <= Self.productionRetryHours.count else { return nil }
        return lastAttempt.addingTimeInterval(rate.scaled(Self.productionRetryHours[attempts - 1] * 3600))
    }
}
