/// The answer of Extend a Subscription Renewal Date (Apple's `ExtendRenewalDateResponse`).
public struct ExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// The subscription's original transaction ID.
    public var originalTransactionId: String?
    /// The extended period's web order line item ID.
    public var webOrderLineItemId: String?
    /// Whether the renewal date moved.
    public var success: Bool?
    /// The new renewal date, in milliseconds since 1970.
    public var effectiveDate: Int64?
}
