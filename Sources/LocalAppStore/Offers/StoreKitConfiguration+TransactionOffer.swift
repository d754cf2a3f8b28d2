import StoreCore

extension StoreKitConfiguration {
    /// The catalog's terms of the offer a transaction was priced at (its `offerType` and
    /// `offerID`), if any: what its signed form's `offerDiscountType` and `offerPeriod` say, and
    /// whether its period is a free one.
    func offer(of transaction: StoreCore.Transaction) -> SubscriptionOffer? {
        guard let kind = transaction.offerType, let info = product(id: transaction.productID)?.subscription else {
            return nil
        }
        return info.offer(id: transaction.offerID, kind: kind)
    }

    /// The code offer of a consumable, non-consumable or non-renewing subscription a
    /// transaction was bought with (its `offerType` `.code` and `offerID`), if any.
    func oneTimeOffer(of transaction: StoreCore.Transaction) -> OneTimeOffer? {
        guard transaction.offerType == .code, let id = transaction.offerID,
            case .oneTime(let offer)? = product(id: transaction.productID)?.codeOffer(named: id)
        else { return nil }
        return offer
    }
}

extension StoreKitConfiguration.SubscriptionInfo {
    /// The subscription's offer of `kind`: the introductory one, or the promotional, code or
    /// win-back offer `id` names (its offerID, else its internalID or reference name:
    /// `offer(named:)`); nil for a kind this version does not know.
    func offer(id: String?, kind: StoreCore.SubscriptionOffer.Kind) -> StoreKitConfiguration.SubscriptionOffer? {
        switch kind {
        case .introductory: introductoryOffer
        case .promotional: id.flatMap(promotionalOffers.offer(named:))
        case .code: id.flatMap(codeOffers.offer(named:))
        case .winBack: id.flatMap(winBackOffers.offer(named:))
        default: nil
        }
    }

    /// Which kind of offer `id` names: promotional unless it names a code or win-back offer.
    func kind(ofOffer id: String) -> StoreCore.SubscriptionOffer.Kind {
        if codeOffers.offer(named: id) != nil { return .code }
        if winBackOffers.offer(named: id) != nil { return .winBack }
        return .promotional
    }
}

extension StoreKitConfiguration.SubscriptionOffer {
    /// What a transaction priced at this offer carries as its offer identifier (the signed
    /// transaction's `offerIdentifier`, StoreKit's `Transaction.offer.id`), as Apple's: an offer
    /// code's reference name, a promotional or win-back offer's offerID, else the name the store
    /// files the offer under (`identifier`).
    func transactionOfferID(as kind: StoreCore.SubscriptionOffer.Kind) -> String? {
        kind == .code ? referenceName ?? identifier : id ?? identifier
    }
}
