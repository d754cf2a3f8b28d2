/// What a backend tells the engine on its event stream.
public enum BackendEvent: Sendable, Hashable {
    /// Transactions changed state (purchased, failed, deferred, restored…). On attach the
    /// backend first sends every unfinished transaction of its persistent queue.
    case transactionsUpdated([Transaction])
    /// Finished transactions left the queue.
    case transactionsRemoved([String])
    /// A purchase was started from the store (a promoted product): the engine asks the app
    /// whether to add it to the queue now.
    case storePaymentRequested(Payment, Product)
    /// Subscription state changed without a new transaction (a period ended, billing retry
    /// began, auto-renew was turned off): the engine re-reads renewal info and statuses.
    case subscriptionsChanged
    /// The account's storefront changed (StoreKit 2's `Storefront.updates`).
    case storefrontChanged(Storefront)
    /// A refund request the app made was approved or declined (an approved one's revoked
    /// transaction comes as `transactionsUpdated` too).
    case refundRequestDecided(RefundDecision)
}
