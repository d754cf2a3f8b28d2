/// The answer of a mass extension request (Apple's `MassExtendRenewalDateResponse`).
public struct MassExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// The request's identifier, for its status request.
    public var requestIdentifier: String?

    /// Creates a response.
    public init(requestIdentifier: String? = nil) { self.requestIdentifier = requestIdentifier }
}
