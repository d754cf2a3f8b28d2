import Foundation
import LocalAppStore
import Receipts

/// One POST of a notification's body (`{"signedPayload": JWS}`) to the receiver
/// (`OutboundPost`, following redirects), and how it ended in Apple's `sendAttemptResult` words.
public struct NotificationDelivery: Sendable {
    private let poster = OutboundPost()

    /// A delivery over its own ephemeral session (no cookies, no cache).
    public init() {}

    /// The body Apple POSTs: `{"signedPayload":"…"}`.
    public static func body(signedPayload: String) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(ResponseBodyV2(signedPayload: signedPayload))) ?? Data()
    }

    /// POSTs `body` to `url`, waiting at most `timeout` (real time) for the answer (see
    /// `OutboundPost.post`: an attempt under way ends within `timeout`).
    public func post(_ body: Data, to url: URL, timeout: Duration) async -> SendAttemptResult {
        await poster.post(body, to: url, timeout: timeout).result
    }
}
