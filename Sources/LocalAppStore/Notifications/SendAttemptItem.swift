import Foundation

/// One attempt to send a notification, as Apple's `sendAttemptItem`.
public struct SendAttemptItem: Codable, Hashable, Sendable {
    /// When the attempt was made (store clock).
    public var attemptDate: Date
    /// How it ended.
    public var sendAttemptResult: SendAttemptResult

    /// An attempt made at `attemptDate` that ended with `sendAttemptResult`.
    public init(attemptDate: Date, sendAttemptResult: SendAttemptResult) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}
