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
    ///
    /// A JWS in compact serialization is base64url and dots, which JSON takes as they are: such a
    /// payload (every one the store signs) is written between the quotes as it is, without a
    /// JSON encoder walking its 8 KiB a character at a time on each delivery; anything else is
    /// encoded by `JSONEncoder`.
    public static func body(signedPayload: String) -> Data {
        if signedPayload.utf8.allSatisfy(isCompactSerialization) {
            var body = Data(capacity: signedPayload.utf8.count + 20)
            body.append(contentsOf: #"{"signedPayload":""#.utf8)
            body.append(contentsOf: signedPayload.utf8)
            body.append(contentsOf: #""}"#.utf8)
            return body
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(ResponseBodyV2(signedPayload: signedPayload))) ?? Data()
    }

    /// Whether `byte` may stand in a JWS compact serialization: the base64url alphabet and `.`.
    private static func isCompactSerialization(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// POSTs `body` to `url`, waiting at most `timeout` (real time) for the answer (see
    /// `OutboundPost.post`: an attempt under way ends within `timeout`).
    public func post(_ body: Data, to url: URL, timeout: Duration) async -> SendAttemptResult {
        await poster.post(body, to: url, timeout: timeout).result
    }
}
