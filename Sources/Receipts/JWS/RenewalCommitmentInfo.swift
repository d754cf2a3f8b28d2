import Foundation
import StoreKitValues

/// What happens when a subscription's 12-month commitment ends, named as Apple's
/// `RenewalCommitmentInfo`. Enums kept raw; prices in milliunits, dates in milliseconds.
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable, RawValueMembers {
    /// The product the subscription renews into when the commitment ends.
    public var commitmentAutoRenewProductId: String?
    /// Whether it renews then, as stored (see `commitmentAutoRenewStatus`).
    public var rawCommitmentAutoRenewStatus: Int32?
    /// The plan it renews into then, as stored (see `commitmentRenewalBillingPlanType`).
    public var rawCommitmentRenewalBillingPlanType: String?
    /// When the commitment ends and renews.
    public var commitmentRenewalDate: Date?
    /// What the renewal then costs, in milliunits of the renewal info's currency.
    public var commitmentRenewalPrice: Int64?

    enum CodingKeys: String, CodingKey {
        case commitmentAutoRenewProductId
        case rawCommitmentAutoRenewStatus = "commitmentAutoRenewStatus"
        case rawCommitmentRenewalBillingPlanType = "commitmentRenewalBillingPlanType"
        case commitmentRenewalDate, commitmentRenewalPrice
    }

    /// Creates an empty value; set the fields that apply.
    public init() {}

    /// Whether the subscription renews when the commitment ends, when known.
    public var commitmentAutoRenewStatus: AutoRenewStatus? {
        get { self[typed: \.rawCommitmentAutoRenewStatus] }
        set { self[typed: \.rawCommitmentAutoRenewStatus] = newValue }
    }

    /// The plan it renews into then, when known.
    public var commitmentRenewalBillingPlanType: RenewalBillingPlanType? {
        get { self[typed: \.rawCommitmentRenewalBillingPlanType] }
        set { self[typed: \.rawCommitmentRenewalBillingPlanType] = newValue }
    }
}
