import Foundation
import StoreCore

extension LocalReceiptIssuer.RenewalDetails {
    /// What a subscription's renewal info says beyond `RenewalInfo`: the renewal price in the
    /// subscriber's storefront (one payment of the plan the next period is billed by; and of
    /// the plan a commitment renews into at its end) (at the offer's price while one applies, at a price increase's
    /// from its announcement), the price increase's status, the offer, the start of the current
    /// run of periods and the app account token.
    /// - Parameters:
    ///   - priceIncrease: the subscription's price increase as of the renewal info (a
    ///     notification's, as of its event); the journal's last one by default.
    ///   - fallbackStorefront: the storefront of a subscriber whose transaction names none.
    init(
        _ info: RenewalInfo, of stored: StoredSubscription, in state: JournalState, catalog: StoreKitConfiguration,
        priceIncrease: PriceIncrease?? = nil, fallbackStorefront: Storefront
    ) {
        let latest = state.entries[stored.latestTransactionID]?.transaction
        self.init(
            recentSubscriptionStartDate: Self.recentSubscriptionStart(of: stored, in: state),
            appAccountToken: latest?.appAccountToken)
        let increase = priceIncrease ?? state.notifications.priceIncreases[stored.lifecycle.originalTransactionID]
        if let increase, increase.date >= stored.lifecycle.periodStart {
            priceIncreaseStatus = increase.priceIncreaseStatus
        }
        let storefront = latest?.storefront.flatMap(Storefront.named) ?? fallbackStorefront
        let plans = BillingPlans(catalog: catalog)
        if let commitment = info.commitmentInfo, commitment.willAutoRenew,
            let next = catalog.product(id: commitment.autoRenewPreference),
            let plan = plans.existingPlan(commitment.renewalBillingPlanType, of: next)
        {
            commitmentRenewalPrice = plans.price(of: plan, for: next, in: storefront).amount
        }
        guard info.willAutoRenew, let product = catalog.product(id: info.autoRenewProductID) else { return }
        // The next payment: one of the plan renewed by, else the product's price.
        let listed =
            info.renewalBillingPlanType.flatMap { plans.existingPlan($0, of: product) }
            .map { plans.price(of: $0, for: product, in: storefront) } ?? catalog.price(for: product, in: storefront)
        let price =
            increase?.renewalPrice(of: stored, into: product.id, currencyCode: listed.currencyCode, in: state)
            .map { Price(amount: $0, currencyCode: listed.currencyCode) } ?? listed
        renewalPrice = price.amount
        currency = price.currencyCode
        // As the renewal will be charged (SubscriptionDesk.renewals).
        if let discount = SubscriptionDesk.discountedRenewal(
            of: stored, into: product, in: storefront, catalog: catalog)
        {
            offer = discount.offer
            offerType = discount.kind
            offerID = discount.offerID
            renewalPrice = discount.price.amount
            currency = discount.price.currencyCode
        }
    }

    /// The earliest start of the subscription's periods reached back through gaps of at most
    /// 60 days, as Apple's `recentSubscriptionStartDate` ignores shorter lapses.
    static func recentSubscriptionStart(of stored: StoredSubscription, in state: JournalState) -> Date? {
        let periods = state.entries(originalTransactionID: stored.lifecycle.originalTransactionID).map(\.transaction)
            .filter {
                $0.state == .purchased
            }.sorted { $0.purchaseDate < $1.purchaseDate }
        guard var start = periods.last?.purchaseDate else { return nil }
        for period in periods.dropLast().reversed() {
            let end = period.expiresDate ?? period.purchaseDate
            guard start.timeIntervalSince(end) <= 60 * 86_400 else { break }
            start = min(start, period.purchaseDate)
        }
        return start
    }
}
