import Catalog
import StoreCore

extension StoreKitConfiguration {
    /// The catalog's terms of the offer a transaction was priced at (its `offerType` and
    /// `offerID`), if any: what its signed form's `offerDiscountType` and `offerPeriod` say, and
    /// whether its period is a free one.
    func offer(of transaction: StoreCore.Transaction) -> SubscriptionOffer? {
        guard let kind = transaction.offerType, let info = product(id: transaction.productID)?.subscription else { return nil }
        switch kind {
        case .introductory: return info.introductoryOffer
        case .promotional: return info.promotionalOffers.first { $0.id == transaction.offerID }
        case .code: return info.codeOffers.first { $0.id == transaction.offerID }
        case .winBack: return info.winBackOffers.first { $0.id == transaction.offerID }
        default: return nil
        }
    }
}
