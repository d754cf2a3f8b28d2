import Catalog
import Foundation
import LocalAppStore
import StoreKitValues

/// What `storefront products` prints: the products of a catalog as a customer in one
/// storefront and locale sees them, as the human table or the `--json` contract.
struct ProductsOutput {
    /// One product, localized and priced.
    struct Row {
        let product: StoreKitConfiguration.Product
        let localization: Localization?
        let price: Price
        let displayPrice: String
        let group: SubscriptionGroup?
    }

    let selection: CatalogSelection
    let rows: [Row]

    /// Localizes and prices every product of `selection`, in catalog order.
    init(selection: CatalogSelection) {
        self.selection = selection
        let locale = Locale(identifier: selection.locale)
        let catalog = selection.catalog
        let groups = Dictionary(catalog.subscriptionGroups.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        rows = catalog.products.map { product in
            let price = catalog.price(for: product, in: selection.storefront)
            return Row(
                product: product,
                localization: product.localization(for: selection.locale, fallback: catalog.settings.locale),
                price: price, displayPrice: price.formatted(locale: locale),
                group: product.subscription.flatMap { groups[$0.groupID] })
        }
    }

    // MARK: JSON

    /// The `--json` document: an array with one object per product (Docs/cli.md, "`--json` contract").
    func json() -> JSONText {
        .array(rows.map(jsonObject))
    }

    private func jsonObject(_ row: Row) -> JSONText {
        let product = row.product
        var members: [(String, JSONText)] = [
            ("productID", .string(product.id)),
            ("type", .string(product.kind.name)),
            ("referenceName", .string(product.referenceName)),
            ("displayName", .string(row.localization?.displayName ?? "")),
            ("description", .string(row.localization?.description ?? "")),
            ("locale", .optional(row.localization?.locale)),
            ("price", .string(row.price.decimalString)),
            ("displayPrice", .string(row.displayPrice)),
            ("currencyCode", .string(row.price.currencyCode)),
            ("storefront", .string(selection.storefront.code)),
            ("familyShareable", .bool(product.familyShareable)),
        ]
        if let subscription = product.subscription {
            members += [
                ("subscriptionGroup", .string(subscription.groupName)),
                ("subscriptionGroupID", .string(subscription.groupID)),
                ("subscriptionGroupDisplayName", .optional(groupDisplayName(row.group))),
                ("subscriptionGroupLevel", .number(String(subscription.groupNumber))),
                ("subscriptionPeriod", .string(subscription.period.iso8601)),
                ("introductoryOffer", subscription.introductoryOffer.map { offerJSON($0, of: product) } ?? .null),
                ("promotionalOffers", .array(subscription.promotionalOffers.map { offerJSON($0, of: product) })),
                ("codeOffers", .array(subscription.codeOffers.map { offerJSON($0, of: product) })),
                ("winBackOffers", .array(subscription.winBackOffers.map { offerJSON($0, of: product) })),
                ("billingPlans", .array(subscription.billingPlans.map { planJSON($0, of: product) })),
            ]
        } else {
            members.append(("codeOffers", .array(product.oneTimeCodeOffers.map { oneTimeOfferJSON($0, of: product) })))
        }
        return .object(members)
    }

    /// The group's name in the selected locale (exact, then same language, then the catalog's locale).
    private func groupDisplayName(_ group: SubscriptionGroup?) -> String? {
        guard let group else { return nil }
        func key(_ locale: String) -> String { locale.replacingOccurrences(of: "-", with: "_").lowercased() }
        func language(_ locale: String) -> Substring { key(locale).prefix { $0 != "_" } }
        let wanted = selection.locale
        let match =
            group.localizations.first { key($0.locale) == key(wanted) }
            ?? group.localizations.first { language($0.locale) == language(wanted) }
            ?? group.localizations.first { key($0.locale) == key(selection.catalog.settings.locale ?? "") }
        return match?.displayName
    }

    /// An offer of `product` priced in the storefront by the catalog's one offer rule.
    private func offerJSON(
        _ offer: StoreKitConfiguration.SubscriptionOffer, of product: StoreKitConfiguration.Product
    ) -> JSONText {
        let price = selection.catalog.price(of: offer, for: product, in: selection.storefront)
        return .object(
            names(of: offer) + [
                ("paymentMode", .string(offer.paymentMode.rawValue)),
                ("period", .string(offer.period.iso8601)),
                ("numberOfPeriods", .number(String(offer.numberOfPeriods))),
            ] + priced(price) + [("billingPlanType", .optional(offer.billingPlanType?.rawValue))])
    }

    /// A code offer of the one-time `product`, priced in the storefront by the catalog's rule.
    private func oneTimeOfferJSON(
        _ offer: StoreKitConfiguration.OneTimeOffer, of product: StoreKitConfiguration.Product
    ) -> JSONText {
        let price = selection.catalog.price(of: offer, for: product, in: selection.storefront)
        return .object(names(of: offer) + [("paymentMode", .string("oneTime"))] + priced(price))
    }

    /// The names every offer's object begins with: each a command may address it by, and the
    /// one the store files it under.
    private func names(of offer: some OfferNames) -> [(String, JSONText)] {
        [
            ("offerID", .optional(offer.id)),
            ("internalID", .optional(offer.internalID)),
            ("referenceName", .optional(offer.referenceName)),
            ("identifier", .optional(offer.identifier)),
        ]
    }

    /// An offer's `price` (a decimal string) and `displayPrice` (formatted for the locale).
    private func priced(_ price: Price) -> [(String, JSONText)] {
        [
            ("price", .string(price.decimalString)),
            ("displayPrice", .string(price.formatted(locale: Locale(identifier: selection.locale)))),
        ]
    }

    /// A billing plan of `product`, each payment and the commitment priced by the catalog's one rule.
    private func planJSON(
        _ plan: StoreKitConfiguration.BillingPlan, of product: StoreKitConfiguration.Product
    ) -> JSONText {
        let locale = Locale(identifier: selection.locale)
        let price = selection.catalog.price(of: plan, for: product, in: selection.storefront)
        let commitment = selection.catalog.commitmentPrice(of: plan, for: product, in: selection.storefront)
        return .object([
            ("type", .string(plan.type.rawValue)),
            ("price", .string(price.decimalString)),
            ("displayPrice", .string(price.formatted(locale: locale))),
            ("commitmentPrice", .optional(commitment?.decimalString)),
            ("commitmentDisplayPrice", .optional(commitment?.formatted(locale: locale))),
            ("isEnabled", .bool(plan.isEnabled)),
            ("internalID", .optional(plan.internalID)),
        ])
    }

    // MARK: Table

    /// The human listing: a summary line, then an aligned table.
    func table() -> String {
        let storefront = selection.storefront
        let summary =
            "\(rows.count) products · storefront \(storefront.code) (\(storefront.name), \(storefront.currencyCode)) · locale \(selection.locale) · \(selection.catalog.file)"
        let table = TextTable(
            columns: [
                .init(header: "PRODUCT ID"), .init(header: "TYPE"), .init(header: "NAME", maximumWidth: 40),
                .init(header: "PRICE", alignment: .right), .init(header: "TERMS", maximumWidth: 110),
            ],
            rows: rows.map { row in
                [
                    row.product.id, Self.typeLabel(row.product.kind), row.localization?.displayName ?? "",
                    row.displayPrice, terms(row),
                ]
            })
        return ([summary, ""] + table.render()).joined(separator: "\n") + "\n"
    }

    /// `every month, level 2, 1 week free` or `…, intro offer ¥799/month for 3 months` (the
    /// price as `--json` gives it) for subscriptions; empty for other kinds.
    private func terms(_ row: Row) -> String {
        guard let subscription = row.product.subscription else { return "" }
        var text = "every \(Self.periodText(subscription.period, every: true)), level \(subscription.groupNumber)"
        // Bought without a plan, a subscription is billed up front: the intro shown is that plan's.
        let upFront: BillingPlanType? = subscription.billingPlans.isEmpty ? nil : .billedUpfront
        if let intro = BillingPlans.offers(subscription.introductoryOffers, of: upFront).first {
            let length = Self.periodText(intro.period, count: intro.numberOfPeriods)
            let price = selection.catalog.price(of: intro, for: row.product, in: selection.storefront)
                .formatted(locale: Locale(identifier: selection.locale))
            switch intro.paymentMode {
            case .free: text += ", \(length) free"
            case .payAsYouGo:
                text += ", intro offer \(price)/\(Self.periodText(intro.period, every: true)) for \(length)"
            case .payUpFront: text += ", intro offer \(price) for \(length)"
            }
        }
        for plan in row.product.subscription?.billingPlans ?? [] where plan.isEnabled && plan.type.hasCommitment {
            text += " or " + commitmentTerms(plan, of: row.product)
        }
        return text
    }

    /// `$7.99/month for 12 months · $95.88 in all`, and the plan's introductory offer.
    private func commitmentTerms(
        _ plan: StoreKitConfiguration.BillingPlan, of product: StoreKitConfiguration.Product
    ) -> String {
        let plans = BillingPlans(catalog: selection.catalog)
        let locale = Locale(identifier: selection.locale)
        let payment = plans.price(of: plan, for: product, in: selection.storefront).formatted(locale: locale)
        let total = plans.commitmentPrice(of: plan, for: product, in: selection.storefront).formatted(locale: locale)
        let months = CommitmentProgress.monthsInCommitment
        var text = "\(payment)/month for \(months) months · \(total) in all"
        let intro = plans.introductoryOffer(of: product, for: plan.type)
        if let intro, intro.billingPlanType == plan.type, intro.paymentMode == .free {
            text += " (\(Self.periodText(intro.period, count: intro.numberOfPeriods)) free)"
        }
        return text
    }

    /// `consumable`, `non-consumable`, `auto-renewable`, `non-renewing`.
    static func typeLabel(_ kind: ProductKind) -> String {
        switch kind {
        case .consumable: "consumable"
        case .nonConsumable: "non-consumable"
        case .autoRenewable: "auto-renewable"
        case .nonRenewing: "non-renewing"
        }
    }

    /// `month`, `3 months`, `1 week`…; `every` drops the leading 1 (“every month”).
    static func periodText(_ period: SubscriptionPeriod, count: Int = 1, every: Bool = false) -> String {
        let total = period.value.multipliedReportingOverflow(by: count)
        let value = total.overflow ? period.value : total.partialValue
        let unit: String
        switch period.unit {
        case .day: unit = "day"
        case .week: unit = "week"
        case .month: unit = "month"
        case .year: unit = "year"
        }
        if value == 1 { return every ? unit : "1 \(unit)" }
        return "\(value) \(unit)s"
    }
}
