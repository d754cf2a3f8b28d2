/// The body of Set App Account Token (Apple's `UpdateAppAccountTokenRequest`).
public struct UpdateAppAccountTokenRequest: Codable, Hashable, Sendable {
    /// The UUID to associate with the purchase.
    public var appAccountToken: String?

    /// Creates a request.
    public init(appAccountToken: String? = nil) { self.appAccountToken = appAccountToken }
}
