import StoreKitValues

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
    /// Follow what other processes do to the shared store (an approval, a refund) until
    /// cancelled: look once, then again each time the store's files change (the system's
    /// file-change notification; no timer); each look synchronizes, and → `.storeChanged` when
    /// the store moved since the last one. Identity `.storeWatch`.
    case watchStore
    /// Start a purchase's content download and follow it until it settles →
    /// `.buySheet(.downloadSettled)`. Identity `.download(id)`.
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
    /// Load the products for the current storefront and locale → `.catalog(.productsLoaded)`.
    case loadProducts
    /// Load history, balances, ownership and pending transactions → `.purchasesLoaded`.
    case loadPurchases
    /// Load the local App Store's settings → `.settings(.loaded)`.
    case loadSettings
    /// Load a page (`NotificationPage.size`) of the store's App Store Server Notifications:
    /// the newest (`before` nil) or the newest made before position `before` →
    /// `.notifications(.loaded)`.
    case loadNotifications(before: Int?)
    /// Look whether `storefront serve` runs on this data directory → `.serverLoaded`.
    case loadServer
    /// Buy a product, with a promotional offer when `offerID` is set and by the billing plan
    /// `billingPlan` when the product is sold by several → `.buySheet(.phase)`… then
    /// `.buySheet(.finished)`.
    case purchase(productID: String, quantity: Int, offerID: String? = nil, billingPlan: BillingPlanType? = nil)
    /// Restore completed transactions → `.menu(.restoreFinished)`.
    case restore
    /// Ask the store for a fresh receipt → `.menu(.receiptRefreshed)`.
    case refreshReceipt
    /// Load the accounts the data directory's app can sign in to → `.accounts(.loaded)`.
    case loadAccounts
    /// Sign the data directory's app in to an account → `.accounts(.signedIn)`; the storefront
    /// then opens again on it.
    case signIn(accountID: String)
    /// Remove an account from the family (its shares end, `REVOKE`) → `.accounts(.removed)`.
    case removeFromFamily(accountID: String)
    /// Switch storefront and locale, and remember them for the next launch →
    /// `.storefrontSwitched` (the context and the products together).
    case setStorefront(code: String, locale: String)
    /// Price one product in every storefront → `.details(.priceComparisonLoaded)`.
    case loadPriceComparison(productID: String)
    /// Decode the app receipt → `.receipt(.loaded)`.
    case loadReceipt
    /// Decode one transaction and its signed payload (JWS) → `.receipt(.loaded)`.
    case loadTransaction(transactionID: String)
    /// Change a store setting (`store set NAME VALUE`) → `.settings(.changed)`.
    case setSetting(name: String, value: String)
    /// Run a Transaction Manager command on a transaction (approve, refund, a price increase…)
    /// → `.transactionManager(.commandFinished)`.
    case transactionCommand(TransactionCommand, transactionID: String)
    /// Run a subscription command of the Transaction Manager on a subscription's transaction
    /// (renew, expire, auto-renew, billing issue) → `.transactionManager(.subscriptionCommandFinished)`.
    case subscriptionCommand(SubscriptionCommand, transactionID: String)
    /// Begin to cancel the subscription to `productID` as the customer: the App Store asks the
    /// developer's Get Retention Message endpoint what to show → `.cancelSheet(.asked)`.
    case askRetention(productID: String)
    /// Carry out the customer's choice on the retention sheet through the engine, and log it
    /// → `.cancelSheet(.chose)`.
    case chooseRetention(RetentionChoice, RetentionSheet)
    /// Use up consumables → `.myPurchases(.consumed)`.
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
    /// Leave the app: the runtime cancels every running effect, restores the terminal and returns.
    case quit

    /// The identity of a long-running or periodic effect; nil for one-shot work.
    public var id: EffectID? {
        switch self {
        case .observeStore: .storeEvents
        case .watchStore: .storeWatch
        case .followDownload(let id, _): .download(id: id)
        case .every(_, let repeated): .every(repeated)
        default: nil
        }
    }
}
