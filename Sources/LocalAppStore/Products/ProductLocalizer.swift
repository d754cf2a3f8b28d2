import Foundation
import StoreCore

/// Turns catalog products into the engine's `Product`s for one storefront and locale:
/// localized name and description, the storefront's price and currency, subscription details.
struct ProductLocalizer: Sendable {
    let catalog: StoreKitConfiguration
    let storefront: Storefront
    /// The display locale, e.g. `ja_JP`.
    let locale: String

    private var formatLocale: Locale { Locale(identifier: locale) }

    /// The engine's product for catalog product `product`.
    func localize(_ product: StoreKitConfiguration.Product) -> StoreCore.Product {
        let text = product.localization(for: locale, fallback: catalog.settings.locale)
        let price = catalog.price(for: product, in: storefront)
        return StoreCore.Product(
            id: product.id, type: Self.type(of: product.kind),
            displayName: text?.displayName ?? product.referenceName,
            description: text?.description ?? "",
            price: price.amount, displayPrice: price.formatted(locale: formatLocale),
            currencyCode: price.currencyCode,
            subscription: product.subscription.map { subscription(of: product, $0) },
            hasDownloads: catalog.content[product.id] != nil, isFamilyShareable: product.familyShareable)
    }

    /// The price the storefront charges for `product`.
    func price(of product: StoreKitConfiguration.Product) -> Price {
        catalog.price(for: product, in: storefront)
    }

    static func type(of kind: ProductKind) -> ProductType {
        switch kind {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewable
        case .nonRenewing: .nonRenewing
        }
    }

    private func subscription(
        of product: StoreKitConfiguration.Product, _ info: StoreKitConfiguration.SubscriptionInfo
    ) -> StoreCore.SubscriptionInfo {
        let group = catalog.subscriptionGroups.first { $0.id == info.groupID }
        let groupName = group.flatMap { groupLocalization($0)?.displayName } ?? group?.name ?? info.groupName
        // Bought without naming a plan, a subscription is billed up front: its offers are that plan's.
        let upFront: BillingPlanType? = info.billingPlans.isEmpty ? nil : .billedUpfront
        return StoreCore.SubscriptionInfo(
            groupID: info.groupID, groupDisplayName: groupName, groupLevel: info.groupNumber,
            period: info.period,
            introductoryOffer: BillingPlans.offers(info.introductoryOffers, of: upFront).first.map {
                offer($0, kind: .introductory, product: product)
            },
            promotionalOffers: info.promotionalOffers.map { offer($0, kind: .promotional, product: product) },
            winBackOffers: info.winBackOffers.map { offer($0, kind: .winBack, product: product) },
            pricingTerms: pricingTerms(of: product, info))
    }

    /// Each enabled billing plan's terms in the storefront (StoreKit's `pricingTerms`): the
    /// payment's price and period, the commitment's price and period, and the plan's offers.
    private func pricingTerms(
        of product: StoreKitConfiguration.Product, _ info: StoreKitConfiguration.SubscriptionInfo
    ) -> [PricingTerms] {
        let plans = BillingPlans(catalog: catalog)
        return info.billingPlans.filter(\.isEnabled).map { plan in
            let price = plans.price(of: plan, for: product, in: storefront)
            var commitment: PricingTerms.CommitmentInfo?
            if plan.type.hasCommitment {
                let total = plans.commitmentPrice(of: plan, for: product, in: storefront)
                commitment = PricingTerms.CommitmentInfo(
                    price: total.amount, displayPrice: total.formatted(locale: formatLocale),
                    period: CommitmentProgress.period)
            }
            let offers =
                BillingPlans.offers(info.introductoryOffers, of: plan.type).prefix(1).map {
                    offer($0, kind: .introductory, product: product)
                }
                + BillingPlans.offers(info.promotionalOffers, of: plan.type).map {
                    offer($0, kind: .promotional, product: product)
                }
                + BillingPlans.offers(info.winBackOffers, of: plan.type).map {
                    offer($0, kind: .winBack, product: product)
                }
            return PricingTerms(
                billingPlanType: plan.type, billingPrice: price.amount,
                billingDisplayPrice: price.formatted(locale: formatLocale),
                billingPeriod: plan.type.hasCommitment ? PeriodBilling.month : info.period, commitmentInfo: commitment,
                subscriptionOffers: offers)
        }
    }

    private func groupLocalization(_ group: SubscriptionGroup) -> SubscriptionGroup.Localization? {
        let wanted = locale.replacingOccurrences(of: "-", with: "_").lowercased()
        let language = wanted.prefix { $0 != "_" }
        return group.localizations.first { $0.locale.replacingOccurrences(of: "-", with: "_").lowercased() == wanted }
            ?? group.localizations.first { $0.locale.lowercased().prefix { $0 != "_" && $0 != "-" } == language }
    }

    /// An offer priced in the storefront by the catalog's one rule (`StoreKitConfiguration.price(of:for:in:)`).
    private func offer(
        _ offer: StoreKitConfiguration.SubscriptionOffer, kind: StoreCore.SubscriptionOffer.Kind,
        product: StoreKitConfiguration.Product
    ) -> StoreCore.SubscriptionOffer {
        let price = catalog.price(of: offer, for: product, in: storefront)
        let mode: StoreCore.SubscriptionOffer.PaymentMode =
            switch offer.paymentMode {
            case .free: .freeTrial
            case .payAsYouGo: .payAsYouGo
            case .payUpFront: .payUpFront
            }
        // An offer is addressed as Xcode addresses it: by offerID, else internalID or reference name.
        return StoreCore.SubscriptionOffer(
            id: kind == .introductory ? offer.id : offer.identifier, kind: kind, paymentMode: mode,
            period: offer.period,
            periodCount: offer.numberOfPeriods, price: price.amount, displayPrice: price.formatted(locale: formatLocale)
        )
    }
}
