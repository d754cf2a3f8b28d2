/// The answer of Get App Transaction Info (Apple's `AppTransactionInfoResponse`).
public struct AppTransactionInfoResponse: Codable, Hashable, Sendable {
    /// The app transaction, signed (`JWSAppTransaction`).
    public var signedAppTransactionInfo: String?

    /// Creates a response.
    public init(signedAppTransactionInfo: String? = nil) { self.signedAppTransactionInfo = signedAppTransactionInfo }
}
