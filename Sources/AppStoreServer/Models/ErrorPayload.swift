/// An App Store Server API error body (Apple's `ErrorPayload`): `{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`.
public struct ErrorPayload: Codable, Hashable, Sendable {
    /// Apple's numeric error code.
    public var errorCode: Int64?
    /// Apple's message.
    public var errorMessage: String?
}
