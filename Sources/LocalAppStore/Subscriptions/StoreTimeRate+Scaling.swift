import Foundation
import StoreCore

extension StoreTimeRate {
    /// A real-world interval (Apple's notification retry hours) as the store's clock runs it
    /// at this rate: scaled as a month is scaled (every-2-seconds makes a month 2 s, so an
    /// hour about 2.8 ms); real time leaves it as it is.
    public func scaled(_ realInterval: TimeInterval) -> TimeInterval {
        guard rawValue != 0 else { return realInterval }
        let month = SubscriptionPeriod(value: 1, unit: .month)
        return realInterval * renewalInterval(for: month) / Self.realDuration(of: month)
    }
}
