import Foundation

extension Date {
    /// The whole milliseconds since 1970 App Store data shows for this date (JWS payloads, the
    /// App Store Server API's dates), rounded to the nearest: the one conversion, so what a
    /// request's dates are compared with is what its answers show. A date beyond what an `Int64`
    /// of milliseconds holds (no store makes one) is clamped; `exactAppStoreMilliseconds` says so.
    public var appStoreMilliseconds: Int64 {
        exactAppStoreMilliseconds ?? (timeIntervalSince1970 < 0 ? .min : .max)
    }

    /// `appStoreMilliseconds`, or nil beyond what an `Int64` holds (a JWS refuses to encode it).
    public var exactAppStoreMilliseconds: Int64? { Int64(exactly: (timeIntervalSince1970 * 1000).rounded()) }

    /// The date `milliseconds` since 1970 stands for in App Store data.
    public init(appStoreMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
