/// The body of Send Consumption Information v1 (Apple's `ConsumptionRequestV1`); enums stored raw.
public struct ConsumptionRequestV1: Codable, Hashable, Sendable {
    /// Whether the customer consented to sending the data (must be true).
    public var customerConsented: Bool?
    /// 0 undeclared, 1 not consumed, 2 partially, 3 fully.
    public var consumptionStatus: Int32?
    /// 0 undeclared, 1 Apple, 2 non-Apple.
    public var platform: Int32?
    /// Whether a free sample or trial was provided.
    public var sampleContentProvided: Bool?
    /// 0 delivered and working … 5 other.
    public var deliveryStatus: Int32?
    /// The app account token (a UUID, or empty).
    public var appAccountToken: String?
    /// 0…7, Apple's tenure ranges.
    public var accountTenure: Int32?
    /// 0…7, Apple's play time ranges.
    public var playTime: Int32?
    /// 0…7, Apple's dollar ranges.
    public var lifetimeDollarsRefunded: Int32?
    /// 0…7, Apple's dollar ranges.
    public var lifetimeDollarsPurchased: Int32?
    /// 0 undeclared … 4 limited access.
    public var userStatus: Int32?
    /// 0 undeclared, 1 prefer grant, 2 prefer decline, 3 no preference.
    public var refundPreference: Int32?

    /// Creates a request.
    public init() {}
}
