import Receipts
import StoreKitValues

/// A subscription's status with its latest transaction and renewal info (Apple's `LastTransactionsItem`).
public struct LastTransactionsItem: Codable, Hashable, Sendable, RawValueMembers {
    /// The status, as stored (see `SubscriptionStatusCode`).
    public var rawStatus: Int32?
    /// The subscription's original transaction ID.
    public var originalTransactionId: String?
    /// The latest transaction, signed.
    public var signedTransactionInfo: String?
    /// The renewal info, signed.
    public var signedRenewalInfo: String?

    enum CodingKeys: String, CodingKey {
        case rawStatus = "status"
        case originalTransactionId, signedTransactionInfo, signedRenewalInfo
    }

    /// The status as a value; nil for one this version does not know.
    public var status: SubscriptionStatusCode? {
        get { self[typed: \.rawStatus] }
        set { self[typed: \.rawStatus] = newValue }
    }

    /// Creates an item.
    public init(
        status: SubscriptionStatusCode? = nil, originalTransactionId: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) {
        self.rawStatus = status?.rawValue
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}
