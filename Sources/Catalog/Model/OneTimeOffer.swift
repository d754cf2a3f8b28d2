import Foundation

extension StoreKitConfiguration {
    /// An offer code's terms on a consumable, non-consumable or non-renewing subscription (a
    /// `codeOffers` entry of a product outside the subscription groups): one purchase of the
    /// product at the offer's price, as the App Store sells it (`offerDiscountType` `ONE_TIME`).
    public struct OneTimeOffer: Sendable, Hashable {
        /// The offer identifier (`offerID`), when the file gives one.
        public var id: String?
        /// App Store Connect's identifier of the offer (`internalID`), when present.
        public var internalID: String?
        /// The reference name (`referenceName`): what a redeemed code's transaction carries as
        /// its offer identifier.
        public var referenceName: String?
        /// What the purchase costs, in the catalog's base currency (`displayPrice`); 0 for a
        /// `free` offer.
        public var price: Decimal = 0
        /// Members the catalog does not model (`eligibility`, …), kept as read.
        public var extra: [String: JSONValue] = [:]
    }
}
