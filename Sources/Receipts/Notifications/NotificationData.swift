import StoreKitValues

/// The app and the purchase a notification is about, as Apple's `data`.
public struct NotificationData: Codable, Hashable, Sendable, RawValueMembers {
    /// The environment, as stored (`Sandbox`, `Production`…).
    public var rawEnvironment: String?
    /// The app's Apple ID (Apple sends it in Production only).
    public var appAppleId: Int64?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The app's build version.
    public var bundleVersion: String?
    /// The transaction, signed (`JWSTransaction`).
    public var signedTransactionInfo: String?
    /// The subscription's renewal info, signed (`JWSRenewalInfo`).
    public var signedRenewalInfo: String?
    /// The subscription's status (1 active, 2 expired, 3 billing retry, 4 grace, 5 revoked), as stored.
    public var rawStatus: Int32?
    /// Why the customer asked for a refund (`CONSUMPTION_REQUEST`), as stored.
    public var rawConsumptionRequestReason: String?

    enum CodingKeys: String, CodingKey {
        case rawEnvironment = "environment"
        case appAppleId, bundleId, bundleVersion, signedTransactionInfo, signedRenewalInfo
        case rawStatus = "status"
        case rawConsumptionRequestReason = "consumptionRequestReason"
    }

    /// Creates empty data; set what applies.
    public init() {}

    /// The environment, when known.
    public var environment: AppStoreEnvironment? {
        get { self[typed: \.rawEnvironment] }
        set { self[typed: \.rawEnvironment] = newValue }
    }
}
