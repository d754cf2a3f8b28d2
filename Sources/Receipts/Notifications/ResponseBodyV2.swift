/// The body of a notification POST, as Apple's `responseBodyV2`: `{"signedPayload": JWS}`.
public struct ResponseBodyV2: Codable, Hashable, Sendable {
    /// The `ResponseBodyV2DecodedPayload`, signed (JWS, ES256, `x5c` chain).
    public var signedPayload: String?

    /// A body carrying `signedPayload`.
    public init(signedPayload: String?) {
        self.signedPayload = signedPayload
    }
}
