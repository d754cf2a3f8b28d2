extension StoreKitConfiguration {
    /// A code offer of any product: a subscription's (`SubscriptionInfo.codeOffers`, with a
    /// period and payment mode) or a one-time product's (`Product.oneTimeCodeOffers`).
    public enum CodeOffer: Sendable, Hashable, OfferNames {
        /// An offer code of an auto-renewable subscription.
        case subscription(SubscriptionOffer)
        /// An offer code of a consumable, non-consumable or non-renewing subscription.
        case oneTime(OneTimeOffer)

        /// The offer identifier (`offerID`), when the file gives one.
        public var id: String? { member(\.id, \.id) }
        /// App Store Connect's identifier of the offer (`internalID`), when present.
        public var internalID: String? { member(\.internalID, \.internalID) }
        /// The reference name, when the file gives one.
        public var referenceName: String? { member(\.referenceName, \.referenceName) }

        /// What a transaction bought with a code of this offer carries as its offer identifier
        /// (the signed transaction's `offerIdentifier`): the offer's reference name, as Apple's,
        /// else the name the store files it under.
        public var transactionOfferID: String? { referenceName ?? identifier }

        private func member(
            _ subscription: KeyPath<SubscriptionOffer, String?>, _ oneTime: KeyPath<OneTimeOffer, String?>
        ) -> String? {
            switch self {
            case .subscription(let offer): offer[keyPath: subscription]
            case .oneTime(let offer): offer[keyPath: oneTime]
            }
        }
    }
}

extension StoreKitConfiguration.Product {
    /// The product's code offers, whatever its type, in file order.
    public var codeOffers: [StoreKitConfiguration.CodeOffer] {
        if let subscription { return subscription.codeOffers.map { .subscription($0) } }
        return oneTimeCodeOffers.map { .oneTime($0) }
    }

    /// The product's code offer `name` addresses (its `offerID`, else its `internalID`, else its
    /// reference name: `offer(named:)`).
    /// - Parameter name: an offer ID, an internal ID or a reference name.
    public func codeOffer(named name: String) -> StoreKitConfiguration.CodeOffer? {
        codeOffers.offer(named: name)
    }
}
