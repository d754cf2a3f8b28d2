import Foundation
internal import Receipts

/// One attempt to send a notification, as Apple's `sendAttemptItem`; coded as Apple's wire
/// has it (the date in milliseconds since 1970), in the journal and in the API alike.
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

    private enum CodingKeys: String, CodingKey { case attemptDate, sendAttemptResult }

    /// Reads `{"attemptDate": MILLISECONDS, "sendAttemptResult": "…"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        attemptDate = Date(appStoreMilliseconds: try container.decode(Int64.self, forKey: .attemptDate))
        sendAttemptResult = try container.decode(SendAttemptResult.self, forKey: .sendAttemptResult)
    }

    /// Writes `{"attemptDate": MILLISECONDS, "sendAttemptResult": "…"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attemptDate.appStoreMilliseconds, forKey: .attemptDate)
        try container.encode(sendAttemptResult, forKey: .sendAttemptResult)
    }
}
