internal import Crypto
import Foundation
import StoreCore

/// Offer codes: the store issues one-time codes for the catalog's `codeOffers` (as App Store
/// Connect does), and a payment redeems one (`Payment.offerCode`, `Store.redeem(offerCode:)`),
/// in the payment's own write (`PaymentQueue.add`).
extension Offers {
    /// Issues `count` one-time codes for a code offer of a product of any type.
    /// - Parameter offerID: the offer's offerID, else its internalID or reference name (as Xcode
    ///   addresses it); the codes record the name the store files it under (`identifier`).
    /// - Throws: `.unknownOffer` when the product has no such code offer; `.io`.
    public func issueCodes(
        productID: String, offerID: String, count: Int = 1
    ) async throws(LocalAppStoreError) -> [OfferCode] {
        let configuration = store.configuration
        guard
            let offer = configuration.catalog.product(id: productID)?.codeOffer(named: offerID),
            let filed = offer.identifier
        else { throw .unknownOffer(productID: productID, offerID: offerID, kind: "code") }
        let now = configuration.clock.now
        return try await store.perform { store throws(LocalAppStoreError) in
            try store.transactAndAnnounce { state throws(LocalAppStoreError) in
                var codes: [OfferCode] = []
                while codes.count < max(count, 1) {
                    let text = try Self.randomCode()
                    guard state.storeKit.offerCodes[text] == nil, !codes.contains(where: { $0.code == text }) else {
                        continue
                    }
                    codes.append(OfferCode(code: text, productID: productID, offerID: filed, issuedAt: now))
                }
                return (codes.map { JournalRecord.make(StoreKitRecord(offerCode: $0)) }, codes)
            }.result
        }
    }

    /// Every code the store issued, oldest first, redeemed or not.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func codes() async throws(LocalAppStoreError) -> [OfferCode] {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            return store.state.storeKit.orderedOfferCodes
        }
    }

    /// The product an unredeemed code is for, in the journal's state as last read.
    /// - Throws: `.invalidOfferIdentifier` for a code never issued, `.ineligibleForOffer` for
    ///   one redeemed already.
    static func product(forCode code: String, in store: isolated LocalAppStore) throws(StoreError) -> String {
        let redemption = SubscriptionOfferRedemption(accountID: store.accountID, now: store.configuration.clock.now)
        return try redemption.redeemable(code, state: store.state).productID
    }

    /// A new code: 12 letters and digits, without the easily confused 0, O, 1 and I.
    private static func randomCode() throws(LocalAppStoreError) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        do {
            return String(try SecureRandom.bytes(count: 12).map { alphabet[Int($0) % alphabet.count] })
        } catch {
            throw .io(path: "random", reason: "cannot draw an offer code: \(error)")
        }
    }
}
