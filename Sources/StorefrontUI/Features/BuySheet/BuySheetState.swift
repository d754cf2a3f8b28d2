import Foundation
import StoreKitValues

extension BuySheetFeature {
    /// The purchase sheet and the purchases under way.
    public struct State: ScreenState {
        /// What the confirmation sheet offers (`Modal.confirm`).
        public var confirmation = Confirmation(productID: "")
        /// The purchase whose progress sheet is shown (`Modal.purchase`), by product ID.
        public var watching = ""
        /// Purchases under way (or just done, until their sheet closes), by product ID.
        public var flows: [String: PurchaseFlow] = [:]

        /// No purchase yet.
        public init() {}

        /// Whether a purchase's steps are moving (the spinner turns).
        var isAnimating: Bool { flows.values.contains { $0.phase < .done } }

        /// Whether a finished purchase's sheet waits to close.
        var isSettling: Bool { flows.values.contains { $0.finishedAt != nil } }
    }

    /// The confirmation sheet's choices: the product, the quantity (consumables), the billing
    /// plan (a subscription sold by several), the offer (0: none or the plan's introductory
    /// offer; n: the n-th promotional offer) and whether the commitment's disclosure is shown.
    public struct Confirmation: Hashable, Sendable {
        /// The product to buy.
        public var productID: String
        /// How many (consumables).
        public var quantity: Int
        /// The offer chosen.
        public var offer: Int
        /// The billing plan chosen: an index into the product's pricing terms.
        public var plan: Int
        /// Whether the sheet shows the one-time disclosure of a commitment before buying it.
        public var disclosing: Bool

        /// A confirmation of one, by the first plan, without a promotional offer.
        public init(productID: String, quantity: Int = 1, offer: Int = 0, plan: Int = 0, disclosing: Bool = false) {
            self.productID = productID
            self.quantity = quantity
            self.offer = offer
            self.plan = plan
            self.disclosing = disclosing
        }
    }
}
