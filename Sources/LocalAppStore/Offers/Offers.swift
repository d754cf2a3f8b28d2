import Foundation
import StoreCore

/// Offers and codes: the store's subscription key and promotional offers signed with it as
/// the developer's server would sign them, the check a payment's signed offer goes through,
/// and one-time offer codes (`OfferCodes.swift`). Reach it as `store.offers`.
public struct Offers: Sendable {
    let store: LocalAppStore

    /// The check a payment's signed promotional offer goes through, at the store clock's now.
    func promotionalOfferCheck() -> PromotionalOfferCheck {
        let configuration = store.configuration
        return PromotionalOfferCheck(
            bundleID: configuration.bundleID,
            keyring: SubscriptionKeyring(stateDirectory: configuration.stateDirectory),
            now: configuration.clock.now)
    }

    /// Judges a promotional offer a retention answer carries as a purchase with it would be
    /// judged now (the product's offer, a key the store knows, a fresh timestamp, a good
    /// signature, an unused nonce), without using its nonce: the purchase does.
    /// - Returns: nil when it is good; else the refusal, as StoreKit would give it.
    package func judgePromotionalOffer(
        _ offer: PromotionalOffer, productID: String, appAccountToken: UUID?
    ) async -> StoreError? {
        guard let product = store.configuration.catalog.product(id: productID) else {
            return .productNotAvailable(productID: productID)
        }
        let payment = Payment(productID: productID, appAccountToken: appAccountToken, promotionalOffer: offer)
        let check = promotionalOfferCheck()
        return await store.perform { store -> StoreError? in
            do throws(StoreError) {
                _ = try check.check(offer, payment: payment, product: product, state: store.state)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The store's subscription key as a signer for this app (made on first use), as the
    /// developer's server holds it: `storefront store sign-offer` and the storefront sign with it.
    /// - Throws: `LocalAppStoreError.io` when the key cannot be made or read.
    public func promotionalOfferSigner() throws(LocalAppStoreError) -> PromotionalOfferSigner {
        let configuration = store.configuration
        let key = try SubscriptionKeyring(stateDirectory: configuration.stateDirectory).signingKey()
        return PromotionalOfferSigner(key: key.privateKey, keyID: key.keyID, bundleID: configuration.bundleID)
    }

    /// The path of the store's subscription key file (`SubscriptionKey_KEYID.p8`), made on first use.
    /// - Throws: `LocalAppStoreError.io` when the key cannot be made.
    public func subscriptionKeyURL() throws(LocalAppStoreError) -> URL {
        let keyring = SubscriptionKeyring(stateDirectory: store.configuration.stateDirectory)
        let key = try keyring.signingKey()
        return keyring.url(of: key.keyID)
    }

    /// Signs the product's promotional offer for one purchase with the store's subscription
    /// key, now by the store's clock, with a new nonce.
    /// - Parameters:
    ///   - productID: the subscription.
    ///   - offerID: its promotional offer (`adHocOffers`).
    ///   - appAccountToken: the purchase's app account token, if it will carry one.
    ///   - applicationUsername: the purchase's application username (signed when there is no token).
    /// - Throws: `.unknownOffer` when the product has no such promotional offer; `.io`.
    public func signPromotionalOffer(
        productID: String, offerID: String, appAccountToken: UUID? = nil, applicationUsername: String? = nil
    ) throws(LocalAppStoreError) -> PromotionalOffer {
        let configuration = store.configuration
        guard
            configuration.catalog.product(id: productID)?.subscription?.promotionalOffers.offer(named: offerID) != nil
        else { throw .unknownOffer(productID: productID, offerID: offerID, kind: "promotional") }
        let timestamp = Int64((configuration.clock.now.timeIntervalSince1970 * 1000).rounded(.down))
        return try promotionalOfferSigner().sign(
            productID: productID, offerID: offerID,
            appAccountName: PromotionalOffer.appAccountName(
                appAccountToken: appAccountToken, applicationUsername: applicationUsername),
            nonce: UUID(), timestamp: timestamp)
    }
}

extension LocalAppStore {
    /// Offers and codes: promotional offers signed with the store's subscription key, and
    /// one-time offer codes.
    public nonisolated var offers: Offers { Offers(store: self) }
}
