import StoreKitValues

/// What a 12-month commitment renews into at its end, as the customer's Manage Subscriptions
/// sheet offers it in My Purchases (`r` on a subscription in a commitment): every product of
/// its group by each of its billing plans, the current choice first selected.
public struct RenewalChoice: Hashable, Sendable {
    /// One thing the commitment may renew into.
    public struct Option: Hashable, Sendable {
        /// The product renewed into.
        public var productID: String
        /// The plan it is paid by (nil: a product sold without billing plans).
        public var plan: BillingPlanType?
    }

    /// The subscription's latest transaction (the store finds the subscription by it).
    public var transactionID: String
    /// The product subscribed to now.
    public var productID: String
    /// The choices, in catalog order.
    public var options: [Option]
    /// The option the subscription renews into now.
    public var current: Int
    /// The option selected.
    public var selected: Int

    /// The choice for the subscription to `productID`, or why there is none: it is not in a
    /// 12-month commitment (its renewal is then changed by buying another plan).
    static func make(for productID: String, in root: State) -> Result<RenewalChoice, RenewalChoiceUnavailable> {
        let purchases = root.purchases
        guard let subscription = purchases.subscriptions.last(where: { $0.productID == productID && !$0.hasEnded }),
            let latest = purchases.transactions.first(where: { $0.transactionID == subscription.latestTransactionID }),
            latest.commitmentInfo != nil, latest.revocationDate == nil,
            let groupID = root.product(productID)?.subscription?.groupID
        else { return .failure(RenewalChoiceUnavailable(productID: productID)) }
        var options: [Option] = []
        for product in root.catalog.products ?? [] where product.subscription?.groupID == groupID {
            let plans = product.subscription?.pricingTerms.map(\.billingPlanType) ?? []
            options +=
                plans.isEmpty ? [Option(productID: product.id)] : plans.map { Option(productID: product.id, plan: $0) }
        }
        let now = Option(productID: subscription.nextProductID, plan: subscription.nextBillingPlanType)
        let current = options.firstIndex(of: now) ?? 0
        return .success(
            RenewalChoice(
                transactionID: latest.transactionID, productID: productID, options: options, current: current,
                selected: current))
    }

    /// An option in words: `Pro (Yearly) · Billed up front · $79.99/year`.
    static func label(_ option: Option, _ root: State) -> String {
        let s = root.strings
        let name = root.name(of: option.productID)
        guard let product = root.product(option.productID) else { return name }
        guard let type = option.plan,
            let terms = product.subscription?.pricingTerms.first(where: { $0.billingPlanType == type })
        else { return name + " · " + SubscriptionTerms.listPrice(product, s) }
        return name + " · " + SubscriptionTerms.planName(type, s) + " · " + SubscriptionTerms.planPrice(terms, s)
    }
}

/// Why My Purchases offers no renewal choice for a subscription: it is not in a commitment.
struct RenewalChoiceUnavailable: Error, Hashable {
    /// The subscription's product.
    let productID: String
}
