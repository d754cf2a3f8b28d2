import Foundation
import StoreCore

/// How the local store judges a payment's offer code or win-back offer before queueing it:
/// the offer must be the product's (`invalidOfferIdentifier`), a code issued and not redeemed,
/// and the customer eligible (`ineligibleForOffer`): a subscription's code offer's
/// `eligibility` names who may take it (`new`, `existing`, `expired`; anyone when empty), a
/// one-time product's code is for anyone who does not own the non-consumable already, a
/// win-back offer is for lapsed subscribers only.
struct SubscriptionOfferRedemption {
    let accountID: String
    let now: Date

    /// The offer a payment applies through a code or a win-back offer: its kind, the ID its
    /// transaction carries, and for a one-time product's code the offer that prices it.
    struct Applied {
        let kind: StoreCore.SubscriptionOffer.Kind
        let id: String
        var oneTime: StoreKitConfiguration.OneTimeOffer?
    }

    /// The offer `payment` applies through a code or win-back offer, or nil when it applies
    /// neither.
    /// - Throws: the App Store's error for an offer the payment may not apply.
    func offer(
        for payment: Payment, product: StoreKitConfiguration.Product, state: JournalState
    ) throws(StoreError) -> Applied? {
        if let text = payment.offerCode {
            let code = try redeemable(text, state: state)
            guard code.productID == product.id else {
                throw .invalidOfferIdentifier("the offer code \(code.code) is for \(code.productID), not \(product.id)")
            }
            guard let offer = product.codeOffer(named: code.offerID) else {
                throw .invalidOfferIdentifier("\(product.id) has no code offer \(code.offerID)")
            }
            let id = offer.transactionOfferID ?? code.offerID
            switch offer {
            case .subscription(let terms):
                guard let info = product.subscription else { break }
                let standing = standing(in: info, state: state)
                guard terms.eligibility.isEmpty || terms.eligibility.contains(standing) else {
                    throw .ineligibleForOffer(
                        "the offer code \(code.code) is for \(terms.eligibility.joined(separator: ", ")) subscribers, and this account is \(standing)"
                    )
                }
            case .oneTime(let terms):
                if product.kind == .nonConsumable,
                    state.ownedPurchase(accountID: accountID, productID: product.id) != nil
                {
                    throw .ineligibleForOffer(
                        "the offer code \(code.code) is for \(product.id), which this account owns already")
                }
                return Applied(kind: .code, id: id, oneTime: terms)
            }
            return Applied(kind: .code, id: id)
        }
        if let id = payment.winBackOfferID {
            guard let info = product.subscription, let offer = info.winBackOffers.offer(named: id) else {
                throw .invalidOfferIdentifier("\(product.id) has no win-back offer \(id)")
            }
            guard standing(in: info, state: state) == "expired" else {
                throw .ineligibleForOffer("the win-back offer \(id) is for lapsed subscribers of \(info.groupName)")
            }
            return Applied(kind: .winBack, id: offer.transactionOfferID(as: .winBack) ?? id)
        }
        return nil
    }

    /// The issued, unredeemed code `text` names.
    /// - Throws: `.invalidOfferIdentifier` for a code the store never issued,
    ///   `.ineligibleForOffer` for one redeemed already.
    func redeemable(_ text: String, state: JournalState) throws(StoreError) -> OfferCode {
        let normalized = OfferCode.normalized(text)
        guard let code = state.storeKit.offerCodes[normalized] else {
            throw .invalidOfferIdentifier("\(text) is not an offer code of this app")
        }
        if let date = code.redeemedAt {
            throw .ineligibleForOffer("the offer code \(code.code) was redeemed already (\(date.formatted(.iso8601)))")
        }
        return code
    }

    /// Where the account stands in the product's group, in the words of a code offer's
    /// eligibility: `new` (never subscribed), `existing` (subscribed now), `expired` (lapsed).
    func standing(in info: StoreKitConfiguration.SubscriptionInfo, state: JournalState) -> String {
        guard let stored = state.subscription(accountID: accountID, groupID: info.groupID) else { return "new" }
        return stored.lifecycle.isExpired ? "expired" : "existing"
    }
}
