/// The body of Send Consumption Information (v2, Apple's `ConsumptionRequest`); enums stored raw.
public struct ConsumptionRequest: Codable, Hashable, Sendable {
    /// Whether the customer consented to sending the data (must be true).
    public var customerConsented: Bool?
    /// Whether a free sample or trial was provided.
    public var sampleContentProvided: Bool?
    /// `DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, `UNDELIVERED_WRONG_ITEM`, `UNDELIVERED_SERVER_OUTAGE` or `UNDELIVERED_OTHER`.
    public var deliveryStatus: String?
    /// How much was consumed, in thousandths of a percent (0…100000).
    public var consumptionPercentage: Int32?
    /// `DECLINE`, `GRANT_FULL` or `GRANT_PRORATED`.
    public var refundPreference: String?

    /// Creates a request.
    public init() {}
}
