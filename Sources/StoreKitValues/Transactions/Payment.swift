import Foundation

/// A request to buy a product: what the app adds to the payment queue.
public struct Payment: Codable, Hashable, Sendable {
    /// The product to buy.
    public let productID: String
    /// How many (consumables only may buy more than one).
    public let quantity: Int
    /// An opaque account identifier of the app's user (see `ApplicationUsername.hash`).
    public let applicationUsername: String?
    /// The app's own order data (such as an order number), kept with the transaction and
    /// returned with it, also after a crash.
    public let orderData: [String: String]
    /// A promotional offer to apply, by its identifier (the signed offer's, when there is one).
    public let offerID: String?
    /// Ties this payment to its caller: two payments of one product each get their own result.
    public let requestID: String
    /// A UUID the app ties to the purchase and its account (StoreKit 2's `appAccountToken`):
    /// the signed transaction and renewal info carry it, lowercase.
    public let appAccountToken: UUID?
    /// The promotional offer with the developer's signature (`SKPaymentDiscount`); the store
    /// applies no promotional offer without one.
    public let promotionalOffer: PromotionalOffer?
    /// The offer code the customer redeems with this payment (`Store.redeem(offerCode:)`).
    public let offerCode: String?
    /// A win-back offer to apply, by its identifier (StoreKit 2's `.winBackOffer(_:)`), for
    /// lapsed subscribers.
    public let winBackOfferID: String?
    /// The billing plan the customer chose for an auto-renewable subscription (StoreKit 2's
    /// `.billingPlanType(_:)`); nil buys the subscription up front.
    public let billingPlanType: BillingPlanType?

    /// The members' names, in the order they are written (`JSONStream` writes them by these).
    enum CodingKeys: String, CodingKey {
        case productID, quantity, applicationUsername, orderData, offerID, requestID, appAccountToken
        case promotionalOffer, offerCode, winBackOfferID, billingPlanType
    }

    /// The most units one payment may buy, as the App Store allows (`SKMutablePayment.quantity`).
    public static let quantities = 1...10

    /// Creates a payment; each gets its own `requestID` unless one is given. A signed
    /// `promotionalOffer` names the offer, unless `offerID` does; `offerCode` and
    /// `winBackOfferID` apply a code or win-back offer instead; `billingPlanType` chooses how a
    /// subscription is paid for.
    public init(
        productID: String, quantity: Int = 1, applicationUsername: String? = nil,
        orderData: [String: String] = [:], offerID: String? = nil, requestID: String = UUID().uuidString,
        appAccountToken: UUID? = nil, promotionalOffer: PromotionalOffer? = nil, offerCode: String? = nil,
        winBackOfferID: String? = nil, billingPlanType: BillingPlanType? = nil
    ) {
        self.offerCode = offerCode
        self.winBackOfferID = winBackOfferID
        self.billingPlanType = billingPlanType
        self.productID = productID
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.orderData = orderData
        self.offerID = offerID ?? promotionalOffer?.offerID
        self.requestID = requestID
        self.appAccountToken = appAccountToken
        self.promotionalOffer = promotionalOffer
    }

    /// The app account name a promotional offer's signature covers (see `PromotionalOffer`).
    public var appAccountName: String {
        PromotionalOffer.appAccountName(appAccountToken: appAccountToken, applicationUsername: applicationUsername)
    }
}
