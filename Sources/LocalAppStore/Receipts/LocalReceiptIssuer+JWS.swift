internal import Crypto
import Foundation
package import Receipts
import StoreCore

/// The JWS the local store signs, with every field Apple's carry: signed transactions,
/// renewal info and the app transaction.
extension LocalReceiptIssuer {
    /// What renewal info says beyond `RenewalInfo`: the renewal's price, the offer it renews
    /// at, the start of the run of uninterrupted periods, and the app account token.
    public struct RenewalDetails: Sendable, Hashable {
        /// The price of the next period, in `currency`.
        public var renewalPrice: Decimal?
        /// The ISO 4217 currency of `renewalPrice`.
        public var currency: String?
        /// The start of the subscription's current run of periods (lapses under 60 days ignored).
        public var recentSubscriptionStartDate: Date?
        /// The kind of offer the next period renews at, if any.
        public var offerType: StoreCore.SubscriptionOffer.Kind?
        /// That offer's identifier (promotional offers).
        public var offerID: String?
        /// That offer's terms in the catalog.
        public var offer: StoreKitConfiguration.SubscriptionOffer?
        /// The UUID the app associated with the subscription.
        public var appAccountToken: UUID?
        /// Apple's `priceIncreaseStatus` while a price increase is announced for the next
        /// renewal: 0 not consented (yet), 1 consented; nil without one.
        public var priceIncreaseStatus: Int32?
        /// What the renewal at the current commitment's end costs (one payment of the plan it
        /// renews into), in `currency`; nil outside a commitment or when it will not renew.
        public var commitmentRenewalPrice: Decimal?

        /// Creates details; set what applies.
        public init(
            renewalPrice: Decimal? = nil, currency: String? = nil, recentSubscriptionStartDate: Date? = nil,
            offerType: StoreCore.SubscriptionOffer.Kind? = nil, offerID: String? = nil,
            offer: StoreKitConfiguration.SubscriptionOffer? = nil, appAccountToken: UUID? = nil
        ) {
            self.renewalPrice = renewalPrice
            self.currency = currency
            self.recentSubscriptionStartDate = recentSubscriptionStartDate
            self.offerType = offerType
            self.offerID = offerID
            self.offer = offer
            self.appAccountToken = appAccountToken
        }
    }

    // MARK: - Signed transactions

    /// The `JWSTransactionDecodedPayload` of a transaction, signed at `now`.
    package func transactionPayload(_ transaction: Transaction, now: Date) -> JWSTransactionDecodedPayload {
        var payload = JWSTransactionDecodedPayload()
        payload.transactionId = transaction.transactionID
        payload.originalTransactionId = transaction.originalTransactionID
        payload.webOrderLineItemId = transaction.webOrderLineItemID
        payload.bundleId = configuration.bundleID
        payload.productId = transaction.productID
        payload.subscriptionGroupIdentifier = transaction.subscriptionGroupID
        payload.purchaseDate = transaction.purchaseDate
        payload.originalPurchaseDate = transaction.originalPurchaseDate
        payload.expiresDate = transaction.expiresDate
        payload.quantity = Int32(clamping: transaction.quantity)
        payload.type = transaction.productType.apple()
        payload.appAccountToken = transaction.appAccountToken
        payload.rawInAppOwnershipType = transaction.ownershipType.rawValue
        payload.signedDate = now
        payload.rawRevocationReason = transaction.revocationReason.map { Int32(clamping: $0) }
        payload.revocationDate = transaction.revocationDate
        if transaction.revocationDate != nil, transaction.ownershipType == .familyShared {
            // A member's access ends whole, whatever ended it (Docs/decisions/0130).
            payload.revocationType = .familyRevoke
        } else if transaction.revocationDate != nil {
            // The store refunds whole transactions only (`store refund`, an approved request).
            payload.revocationType = .refundFull
            payload.revocationPercentage = 100_000
        }
        // Apple sends isUpgraded only when it is true.
        payload.isUpgraded = transaction.isUpgraded ? true : nil
        payload.offerType = Self.offerType(transaction.offerType)
        payload.offerIdentifier = transaction.offerID
        if let offer = catalog?.offer(of: transaction) {
            payload.offerDiscountType = Self.discountType(offer.paymentMode)
            payload.offerPeriod = Self.duration(of: offer)
        } else if catalog?.oneTimeOffer(of: transaction) != nil {
            // A one-time product's offer has no period; Apple says ONE_TIME.
            payload.offerDiscountType = .oneTime
        }
        payload.environment = configuration.environment
        payload.storefront = transaction.storefront
        payload.storefrontId = transaction.storefront.flatMap(Storefront.named)?.storefrontID
        payload.transactionReason = RenewalPayment.isRenewal(transaction) ? .renewal : .purchase
        payload.price = transaction.price.map(Self.milliunits)
        payload.currency = transaction.currencyCode
        payload.appTransactionId = configuration.appTransactionID
        payload.rawBillingPlanType = transaction.billingPlanType?.rawValue
        payload.commitmentInfo = transaction.commitmentInfo.map {
            TransactionCommitmentInfo(
                billingPeriodNumber: Int32(clamping: $0.billingPeriodNumber),
                totalBillingPeriods: Int32(clamping: $0.totalBillingPeriods),
                commitmentPrice: Self.milliunits($0.price),
                commitmentExpiresDate: $0.expirationDate)
        }
        return payload
    }

    /// Signs a transaction as a StoreKit 2 signed transaction (JWS, ES256, chain in `x5c`).
    /// - Throws: `CryptoError` when the chain's key is not EC or OpenSSL cannot sign.
    public func signedTransaction(_ transaction: Transaction, now: Date) throws -> String {
        try jwsSigner().sign(transactionPayload(transaction, now: now))
    }

    // MARK: - Renewal info

    /// The `JWSRenewalInfoDecodedPayload` of a subscription's renewal info, signed at `now`.
    package func renewalInfoPayload(
        _ info: RenewalInfo, details: RenewalDetails = RenewalDetails(), now: Date
    )
        -> JWSRenewalInfoDecodedPayload
    {
        var payload = JWSRenewalInfoDecodedPayload()
        payload.originalTransactionId = info.originalTransactionID
        payload.productId = info.currentProductID
        payload.autoRenewProductId = info.autoRenewProductID
        payload.autoRenewStatus = info.willAutoRenew ? .on : .off
        payload.rawExpirationIntent = info.expirationIntent.map { Int32(clamping: $0.rawValue) }
        payload.isInBillingRetryPeriod = info.isInBillingRetry
        payload.gracePeriodExpiresDate = info.gracePeriodExpiresDate
        payload.renewalDate = info.renewalDate
        payload.signedDate = now
        payload.environment = configuration.environment
        payload.renewalPrice = details.renewalPrice.map(Self.milliunits)
        payload.currency = details.renewalPrice == nil ? nil : details.currency
        payload.recentSubscriptionStartDate = details.recentSubscriptionStartDate
        payload.offerType = Self.offerType(details.offerType)
        payload.offerIdentifier = details.offerID
        if let offer = details.offer {
            payload.offerDiscountType = Self.discountType(offer.paymentMode)
            payload.offerPeriod = Self.duration(of: offer)
        }
        payload.appAccountToken = details.appAccountToken
        payload.rawPriceIncreaseStatus = details.priceIncreaseStatus
        payload.appTransactionId = configuration.appTransactionID
        payload.rawRenewalBillingPlanType = info.renewalBillingPlanType?.rawValue
        payload.commitmentInfo = info.commitmentInfo.map {
            var commitment = $0
            commitment.renewalPrice = commitment.renewalPrice ?? details.commitmentRenewalPrice
            return Self.commitmentInfo(commitment)
        }
        return payload
    }

    /// Apple's `RenewalCommitmentInfo` of a commitment's renewal terms.
    static func commitmentInfo(_ commitment: RenewalInfo.CommitmentInfo) -> RenewalCommitmentInfo {
        var info = RenewalCommitmentInfo()
        info.commitmentAutoRenewProductId = commitment.autoRenewPreference
        info.commitmentAutoRenewStatus = commitment.willAutoRenew ? .on : .off
        info.rawCommitmentRenewalBillingPlanType = commitment.renewalBillingPlanType.rawValue
        info.commitmentRenewalDate = commitment.renewalDate
        info.commitmentRenewalPrice = commitment.renewalPrice.map(Self.milliunits)
        return info
    }

    /// Signs a subscription's renewal info (JWS, ES256, chain in `x5c`).
    /// - Throws: `CryptoError` when the chain's key is not EC or OpenSSL cannot sign.
    public func signedRenewalInfo(
        _ info: RenewalInfo, details: RenewalDetails = RenewalDetails(), now: Date
    ) throws -> String {
        try jwsSigner().sign(renewalInfoPayload(info, details: details, now: now))
    }

    // MARK: - App transaction

    /// The `JWSAppTransactionDecodedPayload` for this app and device, signed at `now`.
    /// - Parameter nonce: the device verification nonce (fresh for every app transaction).
    package func appTransactionPayload(now: Date, nonce: UUID) throws -> JWSAppTransactionDecodedPayload {
        var payload = JWSAppTransactionDecodedPayload()
        payload.receiptType = configuration.environment
        payload.appAppleId = configuration.appAppleIDInItems
        payload.bundleId = configuration.bundleID
        payload.applicationVersion = configuration.appVersion
        payload.receiptCreationDate = now
        payload.originalPurchaseDate = configuration.originalPurchaseDate
        payload.originalApplicationVersion = configuration.originalAppVersion
        payload.deviceVerificationNonce = nonce.uuidString.lowercased()
        let identifier = configuration.deviceIdentifier
        guard identifier.count == MemoryLayout<uuid_t>.size else {
            throw AppTransactionVerifier.VerificationError.invalidDeviceVerification(
                "the device identifier has \(identifier.count) bytes, not 16")
        }
        let device = identifier.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        payload.deviceVerification = try AppTransactionVerifier.deviceVerification(nonce: nonce, device: device)
            .base64EncodedString()
        payload.appTransactionId = configuration.appTransactionID
        payload.originalPlatform = .iOS
        payload.signedDate = now
        return payload
    }

    /// Signs the app transaction (JWS, ES256, chain in `x5c`).
    /// - Throws: `CryptoError` when OpenSSL cannot hash or sign.
    public func signedAppTransaction(now: Date, nonce: UUID = UUID()) throws -> String {
        try jwsSigner().sign(appTransactionPayload(now: now, nonce: nonce))
    }

    // MARK: - Apple's values

    static func offerType(_ kind: StoreCore.SubscriptionOffer.Kind?) -> OfferType? {
        switch kind {
        case .introductory?: .introductoryOffer
        case .promotional?: .promotionalOffer
        case .code?: .subscriptionOfferCode
        case .winBack?: .winBackOffer
        default: nil
        }
    }

    static func discountType(_ mode: PaymentMode) -> OfferDiscountType {
        switch mode {
        case .free: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        }
    }

    /// An offer's whole duration in ISO 8601, as Apple's `offerPeriod` gives it (one month
    /// for two periods is `P2M`).
    static func duration(of offer: StoreKitConfiguration.SubscriptionOffer) -> String {
        SubscriptionPeriod(value: offer.period.value * max(offer.numberOfPeriods, 1), unit: offer.period.unit).iso8601
    }

    /// A price in milliunits (1.99 → 1990), as Apple's `price` field carries it.
    static func milliunits(_ price: Decimal) -> Int64 {
        var scaled = price * 1000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }
}
