internal import Crypto
import Foundation
import StoreCore

/// Offer codes: the store issues one-time codes for the catalog's `codeOffers` (as App Store
/// Connect does), and a payment redeems one (`Payment.offerCode`, `Store.redeem(offerCode:)`).
extension LocalAppStore {
    /// Issues `count` one-time codes for a code offer of a subscription.
    /// - Throws: `.unknownOffer` when the product has no such code offer; `.io`.
    public func issueOfferCodes(
        productID: String, offerID: String, count: Int = 1
    ) throws(LocalAppStoreError) -> [OfferCode] {
        guard
            configuration.catalog.product(id: productID)?.subscription?.codeOffers.contains(where: { $0.id == offerID })
                ?? false
        else { throw .unknownOffer(productID: productID, offerID: offerID, kind: "code") }
        let now = configuration.clock.now
        let (codes, _) = try transactAndAnnounce { state throws(LocalAppStoreError) in
            var codes: [OfferCode] = []
            while codes.count < max(count, 1) {
                let text = try Self.randomOfferCode()
                guard state.storeKit.offerCodes[text] == nil, !codes.contains(where: { $0.code == text }) else {
                    continue
                }
                codes.append(OfferCode(code: text, productID: productID, offerID: offerID, issuedAt: now))
            }
            return (codes.map { JournalRecord.make(StoreKitRecord(offerCode: $0)) }, codes)
        }
        return codes
    }

    /// Every code the store issued, oldest first, redeemed or not.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func offerCodes() throws(LocalAppStoreError) -> [OfferCode] {
        try refresh()
        return journal.state.storeKit.orderedOfferCodes
    }

    /// The subscription an unredeemed code is for (the engine's `redeem(offerCode:)` asks).
    /// - Throws: `.invalidOfferIdentifier` for a code never issued, `.ineligibleForOffer` for
    ///   one redeemed already.
    public func productForOfferCode(_ code: String) async throws(StoreError) -> String {
        try translatingErrors { () throws(LocalAppStoreError) in try refresh() }
        let redemption = SubscriptionOfferRedemption(accountID: configuration.account.id, now: configuration.clock.now)
        return try redemption.redeemable(code, state: journal.state).productID
    }

    /// A new code: 12 letters and digits, without the easily confused 0, O, 1 and I.
    private static func randomOfferCode() throws(LocalAppStoreError) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        do {
            return String(try SecureRandom.bytes(count: 12).map { alphabet[Int($0) % alphabet.count] })
        } catch {
            throw .io(path: "random", reason: "cannot draw an offer code: \(error)")
        }
    }
}
