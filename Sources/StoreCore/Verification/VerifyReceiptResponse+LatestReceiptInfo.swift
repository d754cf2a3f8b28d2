extension VerifyReceiptResponse {
    /// One in-app purchase transaction, renewals included, as the latest receipt lists it
    /// (`responseBody.Latest_receipt_info`); finished consumables are left out.
    ///
    /// It carries every member of the receipt's `In_app` entries under the same wire names, and
    /// five more; the shared ones live in `inApp` and read as its own (`info.productId`).
    @dynamicMemberLookup
    public struct LatestReceiptInfo: Codable, Hashable, Sendable {
        /// The members Apple's `In_app` entries carry too (`cancellation_date` to
        /// `web_order_line_item_id`).
        public var inApp = InApp()
        /// `app_account_token`: the UUID the app gave the purchase (`appAccountToken`).
        public var appAccountToken: String?
        /// `in_app_ownership_type`: "PURCHASED" or "FAMILY_SHARED".
        public var inAppOwnershipType: String?
        /// `is_upgraded`: whether the customer upgraded to another subscription, ending this one ("true").
        public var isUpgraded: Flag?
        /// `offer_code_ref_name`: the reference name of the subscription offer code redeemed.
        public var offerCodeRefName: String?
        /// `subscription_group_identifier`: the subscription group the product belongs to.
        public var subscriptionGroupIdentifier: String?

        /// Creates an empty value; set the members the answer carries.
        public init() {}

        /// A member shared with `InApp`, e.g. `productId` or `expiresDateMs`.
        public subscript<Value>(dynamicMember member: WritableKeyPath<InApp, Value>) -> Value {
            get { inApp[keyPath: member] }
            set { inApp[keyPath: member] = newValue }
        }

        enum CodingKeys: String, CodingKey {
            case appAccountToken = "app_account_token"
            case inAppOwnershipType = "in_app_ownership_type"
            case isUpgraded = "is_upgraded"
            case offerCodeRefName = "offer_code_ref_name"
            case subscriptionGroupIdentifier = "subscription_group_identifier"
        }

        /// Decodes the shared members as `InApp` does, then the five of its own, from one object.
        public init(from decoder: any Decoder) throws {
            inApp = try InApp(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            appAccountToken = try c.decodeIfPresent(String.self, forKey: .appAccountToken)
            inAppOwnershipType = try c.decodeIfPresent(String.self, forKey: .inAppOwnershipType)
            isUpgraded = try c.decodeIfPresent(Flag.self, forKey: .isUpgraded)
            offerCodeRefName = try c.decodeIfPresent(String.self, forKey: .offerCodeRefName)
            subscriptionGroupIdentifier = try c.decodeIfPresent(String.self, forKey: .subscriptionGroupIdentifier)
        }

        /// Encodes the shared members and its own into one object, under Apple's names.
        public func encode(to encoder: any Encoder) throws {
            try inApp.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(appAccountToken, forKey: .appAccountToken)
            try c.encodeIfPresent(inAppOwnershipType, forKey: .inAppOwnershipType)
            try c.encodeIfPresent(isUpgraded, forKey: .isUpgraded)
            try c.encodeIfPresent(offerCodeRefName, forKey: .offerCodeRefName)
            try c.encodeIfPresent(subscriptionGroupIdentifier, forKey: .subscriptionGroupIdentifier)
        }
    }
}
