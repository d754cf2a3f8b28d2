import Catalog
import Foundation
import StoreCore

/// What a subscription's billing plans sell, as the catalog's `billingPlans` say: which plan a
/// payment buys, what one payment and a whole commitment cost in a storefront (through the
/// catalog's one pricing rule), and which offers belong to a plan. A product the catalog gives
/// no billing plans (files before format 5) is sold up front at its price, without a plan, as
/// before plans existed. Pure: a value over the catalog.
public struct BillingPlans: Sendable {
    /// The catalog whose plans these are.
    public let catalog: StoreKitConfiguration

    /// The plans of `catalog`.
    public init(catalog: StoreKitConfiguration) { self.catalog = catalog }

    /// The plan `type` of `product` when it is enabled; a disabled plan is not sold.
    public func plan(
        _ type: BillingPlanType, of product: StoreKitConfiguration.Product
    ) -> StoreKitConfiguration.BillingPlan? {
        product.subscription?.billingPlans.first { $0.type == type && $0.isEnabled }
    }

    /// The plan `type` of `product`, enabled or not: a subscriber keeps paying by the plan
    /// bought after the catalog stops selling it.
    public func existingPlan(
        _ type: BillingPlanType, of product: StoreKitConfiguration.Product
    ) -> StoreKitConfiguration.BillingPlan? {
        plan(type, of: product) ?? product.subscription?.billingPlans.first { $0.type == type }
    }

    /// The plan a payment for `product` buys: the one it names, else the up-front plan; nil for
    /// a product without billing plans bought without naming one.
    /// - Throws: `.paymentInvalid` naming the product and the plan when the product is not sold
    ///   by it (no such plan, or a disabled one), or a plan is named for a product with none.
    public func plan(
        for payment: Payment, of product: StoreKitConfiguration.Product
    ) throws(StoreError) -> StoreKitConfiguration.BillingPlan? {
        let plans = product.subscription?.billingPlans ?? []
        guard !plans.isEmpty else {
            guard let named = payment.billingPlanType, named != .billedUpfront else { return nil }
            throw .paymentInvalid("\(product.id) has no billing plan \(named) (its catalog gives it none)")
        }
        let type = payment.billingPlanType ?? .billedUpfront
        guard let plan = plan(type, of: product) else {
            let sold = plans.filter(\.isEnabled).map(\.type.rawValue).joined(separator: ", ")
            throw .paymentInvalid(
                "\(product.id) is not sold by the billing plan \(type)"
                    + (sold.isEmpty ? " (it has no enabled plan)" : " (it is sold: \(sold))"))
        }
        return plan
    }

    /// What one payment of `plan` costs in `storefront`.
    public func price(
        of plan: StoreKitConfiguration.BillingPlan, for product: StoreKitConfiguration.Product,
        in storefront: Storefront
    ) -> Price {
        catalog.price(of: plan, for: product, in: storefront)
    }

    /// What the whole commitment of a monthly `plan` costs in `storefront`: the file's
    /// `commitmentDisplayPrice` by the catalog's pricing rule, else every payment together.
    public func commitmentPrice(
        of plan: StoreKitConfiguration.BillingPlan, for product: StoreKitConfiguration.Product,
        in storefront: Storefront
    ) -> Price {
        if let price = catalog.commitmentPrice(of: plan, for: product, in: storefront) { return price }
        var price = self.price(of: plan, for: product, in: storefront)
        price.amount *= Decimal(CommitmentProgress.monthsInCommitment)
        return price
    }

    /// The `offers` that belong to `type`: those the catalog gives that plan, or no plan.
    public static func offers(
        _ offers: [StoreKitConfiguration.SubscriptionOffer], of type: BillingPlanType?
    ) -> [StoreKitConfiguration.SubscriptionOffer] {
        offers.filter { $0.billingPlanType == nil || type == nil || $0.billingPlanType == type }
    }

    /// The introductory offer of `product` for a purchase by `type`: the first that belongs to it.
    public func introductoryOffer(
        of product: StoreKitConfiguration.Product, for type: BillingPlanType?
    ) -> StoreKitConfiguration.SubscriptionOffer? {
        Self.offers(product.subscription?.introductoryOffers ?? [], of: type).first
    }

    /// A payment's place in its commitment as the transaction carries it, for a period billed
    /// as `billing` says; nil outside a commitment.
    public func commitmentInfo(
        _ billing: PeriodBilling, of product: StoreKitConfiguration.Product, in storefront: Storefront
    ) -> StoreCore.Transaction.CommitmentInfo? {
        guard let commitment = billing.commitment, let plan = existingPlan(billing.planType, of: product) else {
            return nil
        }
        return StoreCore.Transaction.CommitmentInfo(
            billingPeriodNumber: commitment.billingPeriodNumber, totalBillingPeriods: commitment.totalBillingPeriods,
            price: commitmentPrice(of: plan, for: product, in: storefront).amount,
            expirationDate: commitment.expiresDate)
    }
}
