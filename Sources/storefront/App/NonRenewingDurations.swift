import StoreCore

/// How long the storefront app grants a non-renewing subscription (StoreKit leaves the
/// duration to the app): the Demo's winter season pass lasts 3 months, any other
/// non-renewing product 1 year. `storefront entitlements --non-renewing-duration P3M`
/// replaces both with one duration.
struct NonRenewingDurations: Sendable {
    /// The Demo catalog's season pass.
    static let winterSeasonPass = "com.storefront.demo.seasonpass.winter"

    /// The app's durations: the winter season pass 3 months, everything else 1 year.
    static let storefront = NonRenewingDurations(
        byProduct: [winterSeasonPass: SubscriptionPeriod(value: 3, unit: .month)],
        fallback: SubscriptionPeriod(value: 1, unit: .year))

    /// Durations of named products.
    let byProduct: [String: SubscriptionPeriod]
    /// The duration of every other non-renewing product.
    let fallback: SubscriptionPeriod

    /// One duration for every non-renewing product.
    static func uniform(_ period: SubscriptionPeriod) -> NonRenewingDurations {
        NonRenewingDurations(byProduct: [:], fallback: period)
    }

    /// The duration of `productID`.
    func duration(of productID: String) -> SubscriptionPeriod { byProduct[productID] ?? fallback }

    /// The engine's entitlement calculator with these durations.
    var calculator: EntitlementCalculator {
        let durations = self
        return EntitlementCalculator { durations.duration(of: $0) }
    }
}
