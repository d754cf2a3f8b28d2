/// The answer of Get Transaction Info (Apple's `TransactionInfoResponse`).
public struct TransactionInfoResponse: Codable, Hashable, Sendable {
    /// The transaction, signed (`JWSTransaction`).
    public var signedTransactionInfo: String?

    /// Creates a response.
    public init(signedTransactionInfo: String? = nil) { self.signedTransactionInfo = signedTransactionInfo }
}
