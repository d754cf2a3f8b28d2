import Foundation
import StoreCore

/// How the local store judges a payment's signed promotional offer, as the App Store does:
/// the offer must be the product's (`invalidOfferIdentifier`), its key one the store knows,
/// its timestamp at most 24 hours old and not ahead of the store's clock by more than five
/// minutes, its signature good over Apple's text, and its nonce never used before
/// (`invalidSignature` for each); the offer's price must still be below the subscription's
/// (`invalidOfferPrice`).
struct PromotionalOfferCheck {
    /// How long a signature stays good (Apple: "keeps the offer active for 24 hours").
    static let lifetime: TimeInterval = 24 * 60 * 60
    /// How far ahead of the store's clock a timestamp may be (the signing server's clock skew).
    static let allowedSkew: TimeInterval = 5 * 60

    let bundleID: String
    let keyring: SubscriptionKeyring
    let now: Date

    /// Checks `offer` on `payment` of `product`; returns the
    /// nonce to journal with the transaction. The nonce's reuse is checked again under the
    /// journal's lock (`checkNonce`), since another process may take it meanwhile.
    func check(
        _ offer: PromotionalOffer, payment: Payment, product: StoreKitConfiguration.Product, state: JournalState
    ) throws(StoreError) -> UsedOfferNonce {
        guard let promotional = product.subscription?.promotionalOffers.offer(named: offer.offerID) else {
            throw .invalidOfferIdentifier("\(payment.productID) has no promotional offer \(offer.offerID)")
        }
        let key: SubscriptionKeyring.Key?
        do {
            key = try keyring.key(id: offer.keyID)
        } catch {
            throw .systemError(error.description)
        }
        guard let key else {
            throw .invalidSignature("the key ID \(offer.keyID) is not a subscription key of this app")
        }
        let signedAt = Date(timeIntervalSince1970: Double(offer.timestamp) / 1000)
        guard now.timeIntervalSince(signedAt) <= Self.lifetime else {
            throw .invalidSignature("the signature's timestamp \(offer.timestamp) is more than 24 hours old")
        }
        guard signedAt.timeIntervalSince(now) <= Self.allowedSkew else {
            throw .invalidSignature("the signature's timestamp \(offer.timestamp) is in the future")
        }
        let signer = PromotionalOfferSigner(key: key.privateKey, keyID: key.keyID, bundleID: bundleID)
        guard signer.verifies(offer, productID: payment.productID, appAccountName: payment.appAccountName) else {
            throw .invalidSignature(
                "the signature does not match the offer \(offer.offerID) of \(payment.productID) for this app and account"
            )
        }
        let used = UsedOfferNonce(
            keyID: offer.keyID, nonce: offer.nonce.uuidString.lowercased(), timestamp: offer.timestamp,
            transactionID: "")
        try Self.checkNonce(used, in: state)
        guard promotional.price <= product.price else {
            throw .invalidOfferPrice(
                "the offer \(offer.offerID) costs \(promotional.price), more than the subscription's \(product.price)")
        }
        return used
    }

    /// Refuses a nonce the store accepted before.
    static func checkNonce(_ nonce: UsedOfferNonce, in state: JournalState) throws(StoreError) {
        if let earlier = state.storeKit.usedNonces[StoreKitRecords.nonceKey(keyID: nonce.keyID, nonce: nonce.nonce)] {
            throw .invalidSignature("the nonce \(nonce.nonce) was used already (transaction \(earlier.transactionID))")
        }
    }
}
