import Foundation

/// A payment's record in the store's queue and, once delivered, in the app's ledger.
public struct Transaction: Codable, Hashable, Sendable, Identifiable {
    /// A numeric string, increasing, never reused.
    public let transactionID: String
    /// The first transaction of this purchase: itself, or the one a restore or renewal continues.
    public let originalTransactionID: String
    /// The product bought.
    public let productID: String
    /// The kind of product bought.
    public let productType: ProductType
    /// The payment that made this transaction (quantity, application username, order data).
    public let payment: Payment
    /// Where the transaction is in its life: purchasing, purchased, failed, restored or deferred.
    public var state: TransactionState
    /// When the store charged (or for a restore, the restore's date).
    public var purchaseDate: Date
    /// When the original transaction was charged.
    public var originalPurchaseDate: Date
    /// When a subscription period ends.
    public var expiresDate: Date?
    /// When the purchase was refunded or revoked.
    public var revocationDate: Date?
    /// Why it was revoked (0 other, 1 an issue in the app), as Apple codes it.
    public var revocationReason: Int?
    /// Identifies one subscription period across devices.
    public var webOrderLineItemID: String?
    /// The price charged, in `currencyCode`.
    public var price: Decimal?
    /// The ISO 4217 code of `price`'s currency.
    public var currencyCode: String?
    /// The storefront (ISO 3166 alpha-3) where it was bought.
    public var storefront: String?
    /// The StoreKit 2 signed transaction (JWS compact serialization), when the store issued one.
    public var signedTransaction: String?
    /// Why it failed, when `state` is `.failed`.
    public var error: StoreError?
    /// The subscription group, for auto-renewable subscriptions.
    public var subscriptionGroupID: String?
    /// Whether the customer upgraded to another subscription in the group, ending this one.
    public var isUpgraded: Bool
    /// The kind of offer applied, if any (`introductory`, `promotional`, `code`).
    public var offerType: SubscriptionOffer.Kind?
    /// The offer's identifier, for promotional and code offers.
    public var offerID: String?
    /// Whether the account bought it or has it through Family Sharing.
    public var ownershipType: OwnershipType {
        get { storedOwnershipType ?? .purchased }
        set { storedOwnershipType = newValue == .purchased ? nil : newValue }
    }
    /// `ownershipType`, left out of the encoding when purchased so records read as before.
    private(set) var storedOwnershipType: OwnershipType?
    /// How an auto-renewable subscription is paid for (`billedUpfront` or `monthly`); nil for
    /// other products.
    public var billingPlanType: BillingPlanType?
    /// Which payment of its 12-month commitment this is, for a `monthly` plan.
    public var commitmentInfo: CommitmentInfo?

    /// The transaction ID, for `Identifiable`.
    public var id: String { transactionID }
    /// The number of items bought.
    public var quantity: Int { payment.quantity }
    /// The UUID the app tied to the purchase (StoreKit 2's `appAccountToken`): the payment's, or
    /// its application username when that is a UUID (as the App Store maps it).
    public var appAccountToken: UUID? {
        payment.appAccountToken ?? payment.applicationUsername.flatMap(UUID.init(uuidString:))
    }

    /// Creates a transaction; the original transaction and purchase date default to its own.
    public init(
        transactionID: String, originalTransactionID: String? = nil, productID: String,
        productType: ProductType, payment: Payment, state: TransactionState, purchaseDate: Date,
        originalPurchaseDate: Date? = nil, expiresDate: Date? = nil, revocationDate: Date? = nil,
        revocationReason: Int? = nil, webOrderLineItemID: String? = nil, price: Decimal? = nil,
        currencyCode: String? = nil, storefront: String? = nil, signedTransaction: String? = nil,
        error: StoreError? = nil, subscriptionGroupID: String? = nil, isUpgraded: Bool = false,
        offerType: SubscriptionOffer.Kind? = nil, offerID: String? = nil, ownershipType: OwnershipType = .purchased,
        billingPlanType: BillingPlanType? = nil, commitmentInfo: CommitmentInfo? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID ?? transactionID
        self.productID = productID
        self.productType = productType
        self.payment = payment
        self.state = state
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate ?? purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.webOrderLineItemID = webOrderLineItemID
        self.price = price
        self.currencyCode = currencyCode
        self.storefront = storefront
        self.signedTransaction = signedTransaction
        self.error = error
        self.subscriptionGroupID = subscriptionGroupID
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerID = offerID
        self.ownershipType = ownershipType
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
    }

    enum CodingKeys: String, CodingKey {
        case transactionID, originalTransactionID, productID, productType, payment, state, purchaseDate
        case originalPurchaseDate, expiresDate, revocationDate, revocationReason, webOrderLineItemID, price
        case currencyCode, storefront, signedTransaction, error, subscriptionGroupID, isUpgraded, offerType, offerID
        case storedOwnershipType = "ownershipType"
        case billingPlanType, commitmentInfo
    }

    /// Decodes a transaction; members a version that did not have them left out take their
    /// defaults, so records written by an older version still read.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        payment = try c.decode(Payment.self, forKey: .payment)
        // The members a listing shows decode by the summary's rules, written once there.
        let summary = try TransactionSummary(c, quantity: payment.quantity)
        transactionID = summary.transactionID
        originalTransactionID = summary.originalTransactionID
        productID = summary.productID
        productType = summary.productType
        state = summary.state
        purchaseDate = summary.purchaseDate
        revocationDate = summary.revocationDate
        originalPurchaseDate = try c.decodeIfPresent(Date.self, forKey: .originalPurchaseDate) ?? purchaseDate
        expiresDate = try c.decodeIfPresent(Date.self, forKey: .expiresDate)
        revocationReason = try c.decodeIfPresent(Int.self, forKey: .revocationReason)
        webOrderLineItemID = try c.decodeIfPresent(String.self, forKey: .webOrderLineItemID)
        price = try c.decodeIfPresent(Decimal.self, forKey: .price)
        currencyCode = try c.decodeIfPresent(String.self, forKey: .currencyCode)
        storefront = try c.decodeIfPresent(String.self, forKey: .storefront)
        signedTransaction = try c.decodeIfPresent(String.self, forKey: .signedTransaction)
        error = try c.decodeIfPresent(StoreError.self, forKey: .error)
        subscriptionGroupID = try c.decodeIfPresent(String.self, forKey: .subscriptionGroupID)
        isUpgraded = try c.decodeIfPresent(Bool.self, forKey: .isUpgraded) ?? false
        offerType = try c.decodeIfPresent(SubscriptionOffer.Kind.self, forKey: .offerType)
        offerID = try c.decodeIfPresent(String.self, forKey: .offerID)
        storedOwnershipType = try c.decodeIfPresent(OwnershipType.self, forKey: .storedOwnershipType)
        billingPlanType = try c.decodeIfPresent(BillingPlanType.self, forKey: .billingPlanType)
        commitmentInfo = summary.commitmentInfo
    }
}
