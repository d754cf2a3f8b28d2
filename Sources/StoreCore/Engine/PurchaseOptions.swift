import Foundation

/// How one purchase is made and reported: what `Store.purchase(_:options:)` takes besides the
/// product.
///
/// A value that grows: each option is a property with a default, so options StoreKit 2 adds
/// (an app account token, a signed promotional offer) join without changing any call site.
/// The verifier and the observer live in this process only: a purchase delivered by a later
/// process (after a crash) is verified by `StoreConfiguration.verifier` and reported to the
/// observers registered there.
public struct PurchaseOptions: Sendable {
    /// How many to buy; only consumables may buy more than one.
    public var quantity: Int
    /// An opaque identifier of the app's account (see `ApplicationUsername.hash`).
    public var applicationUsername: String?
    /// The app's own order data (such as an order number), kept with the transaction.
    public var orderData: [String: String]
    /// The identifier of a promotional offer to apply.
    public var offerID: String?
    /// Whether `purchase` returns only once the product's hosted content is installed (or its
    /// download settled as failed, paused or cancelled); otherwise it returns once the purchase
    /// is recorded and the download runs on.
    public var waitsForContent: Bool
    /// Verifies this purchase instead of `StoreConfiguration.verifier` (DEStoreKitManager's
    /// per-request verifier).
    public var verifier: (any PurchaseVerifier)?
    /// Told of this purchase's events only (its payment and its download), held until the
    /// purchase ends; other purchases never reach it.
    public var observer: (any StoreObserver)?
    /// A UUID tying the purchase to the app's account (StoreKit 2's `.appAccountToken(_:)`),
    /// carried by the signed transaction.
    public var appAccountToken: UUID?
    /// A promotional offer signed by the developer's server (StoreKit 2's
    /// `.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`); it names the offer.
    public var promotionalOffer: PromotionalOffer?
    /// A win-back offer for a lapsed subscriber, by its identifier (StoreKit 2's
    /// `.winBackOffer(_:)`; the catalog's `winbackOffers`).
    public var winBackOfferID: String?
    /// How to pay for an auto-renewable subscription (StoreKit 2's `.billingPlanType(_:)`):
    /// `.monthly` for monthly payments over a 12-month commitment; nil (or `.billedUpfront`)
    /// pays each period up front.
    public var billingPlanType: BillingPlanType?
    /// The offer code being redeemed (set by `Store.redeem(offerCode:options:)`).
    var offerCode: String?

    /// Creates purchase options; every option has its default.
    /// - Parameters:
    ///   - quantity: how many to buy (1).
    ///   - applicationUsername: the app's opaque account identifier (none).
    ///   - orderData: the app's order data (empty).
    ///   - offerID: a promotional offer (none).
    ///   - waitsForContent: return only after the hosted content is installed (false).
    ///   - verifier: this purchase's own verifier (none: the configuration's).
    ///   - observer: this purchase's own observer (none).
    ///   - appAccountToken: the app's account UUID for this purchase (none).
    ///   - promotionalOffer: a signed promotional offer (none).
    ///   - winBackOfferID: a win-back offer (none).
    ///   - billingPlanType: the subscription's billing plan (none: up front).
    public init(
        quantity: Int = 1, applicationUsername: String? = nil, orderData: [String: String] = [:],
        offerID: String? = nil, waitsForContent: Bool = false, verifier: (any PurchaseVerifier)? = nil,
        observer: (any StoreObserver)? = nil, appAccountToken: UUID? = nil, promotionalOffer: PromotionalOffer? = nil,
        winBackOfferID: String? = nil, billingPlanType: BillingPlanType? = nil
    ) {
        self.winBackOfferID = winBackOfferID
        self.billingPlanType = billingPlanType
        self.appAccountToken = appAccountToken
        self.promotionalOffer = promotionalOffer
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.orderData = orderData
        self.offerID = offerID
        self.waitsForContent = waitsForContent
        self.verifier = verifier
        self.observer = observer
    }
}
