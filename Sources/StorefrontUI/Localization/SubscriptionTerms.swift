import StoreKitValues

/// What a subscription costs and how it renews, in words: `$4.99/month`, `Renews monthly`,
/// `1 week free, then $4.99/month`.
public enum SubscriptionTerms {
    /// A price for one period: `$4.99/month`, `$9.99 every 3 months`.
    public static func perPeriod(_ price: String, _ period: SubscriptionPeriod, _ s: Strings) -> String {
        guard period.value == 1 else { return s("{} every {}", price, CountedWords.length(period, s.language)) }
        return switch period.unit {
        case .day: s("{}/day", price)
        case .week: s("{}/week", price)
        case .month: s("{}/month", price)
        case .year: s("{}/year", price)
        }
    }

    /// How often it renews: `Renews monthly`, `Renews every 3 months`.
    public static func renewal(_ period: SubscriptionPeriod, _ s: Strings) -> String {
        guard period.value == 1 else { return s("Renews every {}", CountedWords.length(period, s.language)) }
        return switch period.unit {
        case .day: s("Renews daily")
        case .week: s("Renews weekly")
        case .month: s("Renews monthly")
        case .year: s("Renews yearly")
        }
    }

    /// The product's price as the list shows it: per period for an auto-renewable subscription.
    public static func listPrice(_ product: Product, _ s: Strings) -> String {
        guard product.type == .autoRenewable, let period = product.subscription?.period else {
            return product.displayPrice
        }
        return perPeriod(product.displayPrice, period, s)
    }

    /// A billing plan's name: `Billed up front`, `Monthly, 12-month commitment`.
    public static func planName(_ type: BillingPlanType, _ s: Strings) -> String {
        type.hasCommitment ? s("Monthly, 12-month commitment") : s("Billed up front")
    }

    /// What a billing plan costs: `$79.99/year` up front, `$7.99/month for 12 months · $95.88
    /// in all` over a commitment.
    public static func planPrice(_ terms: PricingTerms, _ s: Strings) -> String {
        let each = perPeriod(terms.billingDisplayPrice, terms.billingPeriod, s)
        guard let commitment = terms.commitmentInfo else { return each }
        return s("{} for {} months · {} in all", each, String(payments(terms)), commitment.displayPrice)
    }

    /// How many payments a plan's commitment takes (12 monthly payments a year); 1 without one.
    public static func payments(_ terms: PricingTerms) -> Int {
        guard let period = terms.commitmentInfo?.period else { return 1 }
        let months = period.unit == .year ? 12 * period.value : period.value
        return terms.billingPeriod.unit == .month ? max(1, months / max(1, terms.billingPeriod.value)) : 1
    }

    /// An offer and what follows it: `1 week free, then $4.99/month`, `$1.99/month for
    /// 3 months, then $4.99/month`, `$9.99 for 6 months, then $4.99/month`.
    /// - Parameter then: what follows the offer, when not the product's list price (a plan's payment).
    public static func offer(
        _ offer: SubscriptionOffer, of product: Product, _ s: Strings, then: String? = nil
    ) -> String {
        let after = then ?? listPrice(product, s)
        let length = CountedWords.phrase(offer.period.value * offer.periodCount, .init(offer.period.unit), s.language)
        switch offer.paymentMode {
        case .freeTrial:
            return s("{} free, then {}", length, after)
        case .payUpFront:
            return s("{} for {}, then {}", offer.displayPrice, length, after)
        default:
            return s("{} for {}, then {}", perPeriod(offer.displayPrice, offer.period, s), length, after)
        }
    }
}
