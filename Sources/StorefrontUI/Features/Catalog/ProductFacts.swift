import StoreKitValues

/// What the detail pane and the details window say about a product, as styled lines wrapped
/// to a width: the terms first (what it costs, how it renews, the offer this account gets),
/// then the identifier and the description.
enum ProductFacts {
    static func lines(_ product: Product, _ state: State, width: Int) -> [(String, CellStyle)] {
        let s = state.strings
        var lines: [(String, CellStyle)] = []
        func add(_ text: String, _ style: CellStyle, indent: String = "") {
            for (i, line) in TextLayout.wrap(text, width: max(1, width - DisplayWidth.of(indent))).enumerated() {
                lines.append(((i == 0 ? indent : String(repeating: " ", count: DisplayWidth.of(indent))) + line, style))
            }
        }
        add(State.shownName(product), Theme.title)
        let estimated = state.context?.estimatedPrices.contains(product.id) == true
        var facts =
            "\(s.typeName(product.type)) · \(estimated ? ProductMetrics.estimateMark : "")\(SubscriptionTerms.listPrice(product, s))"
        if let status = ProductStatus.of(product, in: state) { facts += " · \(status.text)" }
        add(facts, Theme.price)
        if estimated, let storefront = state.context?.storefront {
            add(
                s("≈ no price set for {}: the catalog's price, read in {}", storefront, product.currencyCode),
                Theme.secondary)
        }
        if let subscription = product.subscription {
            if let intro = subscription.introductoryOffer {
                if state.purchases.isEligibleForIntroOffer(product) {
                    add(SubscriptionTerms.offer(intro, of: product, s), Theme.owned)
                } else {
                    add(
                        SubscriptionTerms.offer(intro, of: product, s) + " — "
                            + s("not eligible (subscribed in this group before)"),
                        Theme.secondary)
                }
            }
            for terms in subscription.pricingTerms {
                guard terms.commitmentInfo != nil else { continue }
                let offer = terms.subscriptionOffers.first { $0.kind == .introductory }
                let monthly = SubscriptionTerms.perPeriod(terms.billingDisplayPrice, terms.billingPeriod, s)
                add(
                    s("Or {}", SubscriptionTerms.planPrice(terms, s))
                        + (offer.map { " · " + SubscriptionTerms.offer($0, of: product, s, then: monthly) } ?? ""),
                    Theme.price, indent: "• ")
            }
            add(
                SubscriptionTerms.renewal(subscription.period, s) + " · "
                    + s("Group {}, level {}", subscription.groupDisplayName, String(subscription.groupLevel)), .plain)
            if let change = PlanChange.of(product, in: state) { add(change.text(s), Theme.waiting) }
            for promotional in subscription.promotionalOffers {
                add(
                    s("Promotional offer") + " " + (promotional.id ?? "") + ": "
                        + SubscriptionTerms.offer(promotional, of: product, s),
                    Theme.owned, indent: "• ")
            }
            for winBack in subscription.winBackOffers {
                add(
                    s("Win-back offer") + " " + (winBack.id ?? "") + ": "
                        + SubscriptionTerms.offer(winBack, of: product, s),
                    Theme.owned, indent: "• ")
            }
        }
        if product.hasDownloads { add("⇩ " + s("Has downloadable content"), Theme.busy) }
        add(product.id, Theme.secondary)
        if !product.description.isEmpty { add(product.description, .plain) }
        return lines
    }
}
