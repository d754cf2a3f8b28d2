/// The status of a mass extension (Apple's `MassExtendRenewalDateStatusResponse`).
public struct MassExtendRenewalDateStatusResponse: Codable, Hashable, Sendable {
    /// The request's identifier.
    public var requestIdentifier: String?
    /// Whether it has finished.
    public var complete: Bool?
    /// When it finished, in milliseconds since 1970.
    public var completeDate: Int64?
    /// Subscriptions extended.
    public var succeededCount: Int64?
    /// Subscriptions that could not be extended.
    public var failedCount: Int64?

}
