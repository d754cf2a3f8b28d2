/// Work for the runtime, returned by `reduce` as data. Each result comes back as an `Action`.
///
/// Most effects are one-shot. Long-running and periodic ones have an identity (`id`): the
/// runtime keeps one task per identity, cancels it on `.cancel(id)`, when an effect with the
/// same identity replaces it, and on `.quit`; a cancelled effect's later actions are dropped.
public enum Effect: Hashable, Sendable {
    /// Listen to the engine until cancelled: carry on downloads an earlier process left
    /// waiting, report every unfinished download, then each engine event → `.storeEvent`.
    /// Identity `.storeEvents`.
    case observeStore
    /// Look once whether another process changed the shared store (an approval, a refund):
    /// synchronize, and → `.storeChanged` when the store moved since the last look.
    case lookForChanges
    /// Start a purchase's content download and follow it until it settles →
    /// `.purchaseDownloadSettled`. Identity `.download(id)`.
    case followDownload(id: String, productID: String)
    /// Send `.tick` with the runtime clock's time (run by the runtime itself).
    case tick
    /// Run `effect` every `interval` of the runtime's clock (first after one interval) until
    /// cancelled or replaced. Identity `.every(effect)`: one schedule per repeated effect.
    indirect case every(Duration, Effect)
    /// Stop the running effect with this identity (nothing when none runs).
    case cancel(EffectID)
    /// Load the storefront, locale, account and their choices → `.contextLoaded`.
    case loadContext
    /// Load the products for the current storefront and locale → `.productsLoaded`.
    case loadProducts
    /// Load history, balances, ownership and pending transactions → `.purchasesLoaded`.
    case loadPurchases
    /// Load the local App Store's settings → `.settingsLoaded`.
    case loadSettings
    /// Load a page (`NotificationPage.size`) of the store's App Store Server Notifications:
    /// the newest (`before` nil) or the newest made before position `before` →
    /// `.notificationsLoaded`.
    case loadNotifications(before: Int?)
    /// Look whether `storefront serve` runs on this data directory → `.serverLoaded`.
    case loadServer
    /// Buy a product, with a promotional offer when `offerID` is set → `.purchasePhase`… then
    /// `.purchaseFinished`.
    case purchase(productID: String, quantity: Int, offerID: String? = nil)
    /// Restore completed transactions → `.restoreFinished`.
    case restore
    /// Ask the store for a fresh receipt → `.receiptRefreshed`.
    case refreshReceipt
    /// Switch storefront and locale, and remember them for the next launch →
    /// `.storefrontSwitched` (the context and the products together).
    case setStorefront(code: String, locale: String)
    /// Price one product in every storefront → `.priceComparisonLoaded`.
    case loadPriceComparison(productID: String)
    /// Decode the app receipt → `.documentLoaded`.
    case loadReceipt
    /// Decode one transaction and its signed payload (JWS) → `.documentLoaded`.
    case loadTransaction(transactionID: String)
    /// Change a store setting (`store set NAME VALUE`) → `.settingsLoaded`.
    case setSetting(name: String, value: String)
    /// Approve a deferred (Ask to Buy) transaction → `.transactionCommandFinished`.
    case approve(transactionID: String)
    /// Decline a deferred transaction.
    case decline(transactionID: String)
    /// Refund a purchased transaction.
    case refund(transactionID: String)
    /// Resolve an interrupted purchase so it completes.
    case resolve(transactionID: String)
    /// Renew a subscription now; while billing fails, the renewal fails into billing retry
    /// → `.subscriptionCommandFinished`.
    case renew(transactionID: String)
    /// End a subscription now.
    case expire(transactionID: String)
    /// Turn a subscription's auto-renew off (the customer cancels) or back on.
    case setAutoRenew(transactionID: String, on: Bool)
    /// Make a subscription's renewals fail (billing retry), or resolve that (it renews at once
    /// when in billing retry).
    case setBillingIssue(transactionID: String, on: Bool)
    /// Use up consumables → `.consumed`.
    case consume(productID: String, quantity: Int)
    /// Pause a download.
    case pauseDownload(id: String)
    /// Resume a paused download.
    case resumeDownload(id: String)
    /// Cancel a download.
    case cancelDownload(id: String)
    /// Fetch and verify the app transaction (StoreKit 2's `AppTransaction.shared`) → `.appTransactionLoaded`.
    case loadAppTransaction
    /// Redeem an offer code for a subscription (the store's first open code for it, issued now
    /// when there is none) → the purchase flow's actions, as `.purchase`.
    case redeemOfferCode(productID: String)
    /// The customer asks for a refund (StoreKit 2's `beginRefundRequest`) → `.transactionCommandFinished`.
    case requestRefund(transactionID: String)
    /// The Transaction Manager approves or declines the transaction's pending refund request →
    /// `.transactionCommandFinished`.
    case decideRefund(transactionID: String, approve: Bool)
    /// The App Store announces a price increase needing consent for the transaction's
    /// subscription (`accept` nil), or the customer answers it (true consents, false declines)
    /// → `.transactionCommandFinished`.
    case priceIncrease(transactionID: String, accept: Bool?)
    /// Apple's support reverses the transaction's refund: it grants again (`REFUND_REVERSED`)
    /// → `.transactionCommandFinished`.
    case reverseRefund(transactionID: String)
    /// Leave the app: the runtime cancels every running effect, restores the terminal and returns.
    case quit

    /// The identity of a long-running or periodic effect; nil for one-shot work.
    public var id: EffectID? {
        switch self {
        case .observeStore: .storeEvents
        case .followDownload(let id, _): .download(id: id)
        case .every(_, let repeated): .every(repeated)
        default: nil
        }
    }
}
