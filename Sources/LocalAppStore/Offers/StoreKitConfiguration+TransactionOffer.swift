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
}

extension StoreKitConfiguration.SubscriptionInfo {
    /// The subscription's offer of `kind`: the introductory one, or the promotional, code or
    /// win-back offer with `id`; nil for a kind this version does not know.
    func offer(id: String?, kind: StoreCore.SubscriptionOffer.Kind) -> StoreKitConfiguration.SubscriptionOffer? {
        switch kind {
        case .introductory: introductoryOffer
        case .promotional: promotionalOffers.first { $0.id == id }
        case .code: codeOffers.first { $0.id == id }
        case .winBack: winBackOffers.first { $0.id == id }
        default: nil
        }
    }

    /// Which kind of offer `id` is: promotional unless it names a code or win-back offer.
    func kind(ofOffer id: String) -> StoreCore.SubscriptionOffer.Kind {
        if codeOffers.contains(where: { $0.id == id }) { return .code }
        if winBackOffers.contains(where: { $0.id == id }) { return .winBack }
        return .promotional
    }
}
