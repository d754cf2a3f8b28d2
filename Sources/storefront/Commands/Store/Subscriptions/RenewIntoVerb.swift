import LocalAppStore
import StoreCore

/// `storefront store renew-into ID [PRODUCT_ID] [--billing-plan monthly|upfront]`: what a
/// subscription renews into at the end of its commitment (or period), as the customer's
/// Manage Subscriptions sheet chooses it.
struct RenewIntoVerb: RecordedChange {
    let name = "renew-into"
    let arguments = [Argument("ID"), Argument("PRODUCT_ID", optional: true)]
    let abstract = """
        choose what the subscription renews into at the end of its 12-month commitment (or its period): \
        another product of its group, --billing-plan monthly (a new commitment) or upfront; auto-renew turns on
        """
    var options: [any CommandOption] { [BuyCommand.billingPlan] }

    func change(_ store: LocalAppStore, _ call: VerbCall) async throws -> Transaction? {
        try await store.subscriptions.setRenewal(
            call.arguments[0], productID: call.arguments.count > 1 ? call.arguments[1] : nil,
            plan: try call.value(BuyCommand.billingPlan))
    }

    func message(_ latest: Transaction, _ subscription: SubscriptionLifecycle?, _ call: VerbCall) -> String {
        let what = RecordedChanges.what(latest)
        guard let s = subscription else { return "Subscription \(what) renews as chosen." }
        let plan = s.renewalBillingPlanType.map {
            $0 == .monthly ? " monthly (a new 12-month commitment)" : " up front"
        }
        let when =
            s.billing?.commitment.map { "when its commitment ends, \(TransactionOutput.date($0.expiresDate))" }
            ?? "at \(TransactionOutput.date(s.periodEnd))"
        return "Subscription \(what) renews as \(s.autoRenewProductID)\(plan ?? "") \(when)."
    }
}
