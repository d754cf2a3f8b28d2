import Foundation

/// One Get Retention Message exchange, as the store's log keeps it (`store retention-log`):
/// the request the App Store sent when a customer began to cancel, what the developer's
/// server answered, what the customer was shown, and what the customer chose.
public struct RealtimeExchange: Codable, Hashable, Sendable {
    /// What the customer was shown.
    public enum Shown: String, Codable, Hashable, Sendable {
        /// The server's text message (`message`).
        case message
        /// The server's switch-plan message (`alternateProduct`).
        case alternateProduct
        /// The server's promotional offer (`promotionalOffer`).
        case promotionalOffer
        /// The default message for the product and locale (the answer failed, or none was asked).
        case defaultMessage
        /// Nothing: no answer was usable and no default message is configured.
        case none
    }

    /// The request's `requestIdentifier`.
    public let requestIdentifier: UUID
    /// When the request was made, on the store clock.
    public let date: Date
    /// The subscription's original transaction ID.
    public let originalTransactionID: String
    /// Its product.
    public let productID: String
    /// The customer's locale (`userLocale`).
    public let userLocale: String
    /// The environment of the request.
    public let environment: String
    /// Where it was sent; nil when no realtime URL is configured.
    public let url: String?
    /// How the POST ended, in Apple's `sendAttemptResult` words; nil when nothing was sent.
    public let result: String?
    /// The answer's HTTP status, if one came.
    public let status: Int?
    /// How long the answer took, in milliseconds, if one came.
    public let milliseconds: Int?
    /// The answer's body as received (at most `answerLimit` bytes, as UTF-8 text).
    public let answer: String?
    /// What the customer was shown.
    public let shown: Shown
    /// The message shown, if any.
    public let messageIdentifier: UUID?
    /// The product a switch-plan message offered.
    public let alternateProductID: String?
    /// The promotional offer shown.
    public let offerIdentifier: String?
    /// Why the answer was not shown (it failed, was late or invalid), when it was not.
    public let fallbackReason: String?
    /// What the customer chose: `offer`, `switch` or `cancel`; nil until they choose.
    public var choice: String?
    /// The transaction the choice made (an offer's or a switch's), if any.
    public var choiceTransactionID: String?

    /// How much of an answer the log keeps.
    public static let answerLimit = 4096

    /// Creates a log entry.
    public init(
        requestIdentifier: UUID, date: Date, originalTransactionID: String, productID: String, userLocale: String,
        environment: String, url: String?, result: String?, status: Int?, milliseconds: Int?, answer: Data?,
        shown: Shown, messageIdentifier: UUID?, alternateProductID: String?, offerIdentifier: String?,
        fallbackReason: String?
    ) {
        self.requestIdentifier = requestIdentifier
        self.date = date
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.userLocale = userLocale
        self.environment = environment
        self.url = url
        self.result = result
        self.status = status
        self.milliseconds = milliseconds
        self.answer = answer.map { String(decoding: $0.prefix(Self.answerLimit), as: UTF8.self) }
        self.shown = shown
        self.messageIdentifier = messageIdentifier
        self.alternateProductID = alternateProductID
        self.offerIdentifier = offerIdentifier
        self.fallbackReason = fallbackReason
    }
}
