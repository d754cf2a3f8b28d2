import Foundation

extension Date {
    /// The whole milliseconds since 1970 App Store data shows for this date (JWS payloads, the
    /// App Store Server API's dates), rounded to the nearest; nil beyond what an `Int64` holds.
    /// The one conversion: what a request's dates are compared with is what its answers show.
    public var appStoreMilliseconds: Int64? { Int64(exactly: (timeIntervalSince1970 * 1000).rounded()) }

    /// The date `milliseconds` since 1970 stands for in App Store data.
    public init(appStoreMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
