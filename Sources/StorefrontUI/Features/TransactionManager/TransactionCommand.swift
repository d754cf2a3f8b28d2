import StoreKitValues

/// What the Transaction Manager does to one transaction, as Xcode's Transaction Manager and
/// the CLI's `store` verbs do (`Effect.transactionCommand`).
public enum TransactionCommand: Hashable, Sendable {
    /// Approve a deferred (Ask to Buy) transaction.
    case approve
    /// Decline a deferred transaction.
    case decline
    /// Resolve an interrupted purchase so it completes.
    case resolve
    /// Refund a purchased transaction.
    case refund
    /// Apple's support reverses the transaction's refund: it grants again (`REFUND_REVERSED`).
    case reverseRefund
    /// The customer asks for a refund (StoreKit 2's `beginRefundRequest`).
    case requestRefund
    /// The App Store approves or declines the transaction's pending refund request.
    case decideRefund(approve: Bool)
    /// The App Store announces a price increase needing consent for the transaction's
    /// subscription (`accept` nil), or the customer answers it (true consents, false declines).
    case priceIncrease(accept: Bool?)
    /// The purchaser stops sharing the transaction's product with the family: each member's
    /// `FAMILY_SHARED` transaction is revoked (`REVOKE`).
    case stopSharing
}

/// What the Transaction Manager does to an auto-renewable subscription, through one of its
/// transactions (`Effect.subscriptionCommand`).
public enum SubscriptionCommand: Hashable, Sendable {
    /// Renew now; while billing fails, the renewal fails into billing retry.
    case renew
    /// End the subscription now.
    case expire
    /// Turn auto-renew off (the customer cancels) or back on.
    case setAutoRenew(on: Bool)
    /// Make renewals fail (billing retry), or resolve that (it renews at once when in billing
    /// retry).
    case setBillingIssue(on: Bool)
    /// The customer chooses what a 12-month commitment renews into at its end: a product of the
    /// group, by a billing plan (nil: the product's own), as Manage Subscriptions does.
    case renewInto(productID: String, plan: BillingPlanType?)
}
