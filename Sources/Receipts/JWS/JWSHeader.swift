/// The protected header of an App Store JWS: the algorithm and the certificate chain.
public struct JWSHeader: Codable, Hashable, Sendable {
    /// The signature algorithm; App Store JWS use `ES256`.
    public var alg: String = "ES256"
    /// The chain, leaf first, each certificate as standard base64 of its DER.
    public var x5c: [String]?
    /// An optional key identifier.
    public var kid: String?
}
