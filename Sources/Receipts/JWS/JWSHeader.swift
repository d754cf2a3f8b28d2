/// The protected header of an App Store JWS: the algorithm and the certificate chain.
public struct JWSHeader: Codable, Hashable, Sendable {
    /// The signature algorithm; App Store JWS use `ES256`.
    public var alg: String
    /// The chain, leaf first, each certificate as standard base64 of its DER.
    public var x5c: [String]?
    /// An optional key identifier.
    public var kid: String?

    /// Creates a header.
    public init(alg: String = "ES256", x5c: [String]?, kid: String? = nil) {
        self.alg = alg
        self.x5c = x5c
        self.kid = kid
    }
}
