import Foundation
import StoreCore
import StorefrontUI

/// What the storefront's effects need of the world: the engine (StoreCore's `Store`), the
/// local App Store behind it, and the records `storefront serve` keeps, in the storefront's
/// own words. The `storefront` executable implements it over a store session; the effects'
/// unit tests implement it with a fake, as swift-composable-architecture's dependency clients
/// are overridden in a `TestStore`.
///
/// Each requirement is one thing an effect asks; none decides anything the effects or
/// `reduce` decide. A failure is a `StoreError` the storefront shows (the implementation
/// translates the local store's errors), so the effects never see another module's error.
/// A screen that needs something new of the store adds its requirement in its own section.
public protocol StorefrontStore: Sendable {
    // MARK: The engine and the shared store

    /// The engine's events from now on (payments, restores, downloads…), until the consumer
    /// stops listening.
    func events() -> AsyncStream<StoreEvent>
    /// Pulls in what other processes changed in the shared store (an approval, a refund) and
    /// lets the engine deliver it.
    func synchronize() async
    /// The shared store's revision: it moves whenever any process changes the store.
    func revision() async -> Int
    /// Each time the shared store may have changed, from now until the consumer stops
    /// listening (changes coalesced; the store's files watched, never a timer).
    func changes() -> AsyncStream<Void>
    /// The engine's downloads of hosted content; nil when the catalog hosts none.
    var downloads: (any StorefrontDownloads)? { get }

    // MARK: Where the app shops

    /// The storefront, locale and account, and the choices the catalog offers.
    func context() async -> StoreContext
    /// Every product of the catalog, localized for the current storefront and locale, in
    /// catalog order.
    func products() async throws(StoreError) -> [Product]
    /// Asks the store for one product afresh (a round trip, as a purchase's first step).
    func requestProduct(_ productID: String) async throws(StoreError)
    /// Switches the store's storefront and locale.
    func setStorefront(_ code: String, locale: String) async throws(StoreError)
    /// Remembers a storefront and locale for the next launch (a failure only forgets them).
    func rememberStorefront(_ code: String, locale: String)
    /// One product's price in every storefront, each in its own currency, estimates marked.
    func priceComparison(productID: String) async -> [StorefrontPrice]
    /// The base URL of the App Store Server running on the same data directory, if one runs.
    func serverURL() async -> String?

    // MARK: Buying

    /// A promotional offer for a product, signed as the app's server signs one.
    func signPromotionalOffer(productID: String, offerID: String) throws(StoreError) -> PromotionalOffer
    /// Buys `quantity` of a product, with a signed promotional offer when one is given, by the
    /// billing plan `billingPlan` (nil: the product's default, up front).
    func purchase(
        _ productID: String, quantity: Int, promotionalOffer: PromotionalOffer?, billingPlan: BillingPlanType?
    ) async -> PurchaseResult
    /// The store's first unredeemed offer code for a product, issued now for the product's
    /// first code offer when it has none; nil when the product has no code offer.
    func offerCode(for productID: String) async throws(StoreError) -> String?
    /// Redeems an offer code, as a purchase.
    func redeem(offerCode: String) async -> PurchaseResult
    /// Restores completed transactions (StoreKit 1's restore).
    func restore() async throws(StoreError) -> [Transaction]
    /// Asks the store for a fresh app receipt; returns its size in bytes.
    func refreshReceipt() async throws(StoreError) -> Int
    /// The app transaction, verified or not.
    func appTransaction() async throws(StoreError) -> VerificationResult<AppTransaction>

    // MARK: What the account has

    /// Every transaction the app recorded, in no particular order.
    func history() async throws(StoreError) -> [Transaction]
    /// Consumable balances by product ID.
    func balances() async throws(StoreError) -> [String: Int]
    /// What the account is entitled to now.
    func entitlements() async throws(StoreError) -> [Entitlement]
    /// The transactions waiting for a decision (deferred, interrupted, unfinished); an
    /// interrupted one carries `TransactionError.interrupted`.
    func pending() async throws(StoreError) -> [Transaction]
    /// The order ID (as on the customer's invoice) of a purchase or renewal, if it has one.
    func orderID(forTransactionID transactionID: String) -> String?
    /// The accounts the data directory's app can sign in to, the signed-in one marked.
    func accounts() async throws(StoreError) -> [AccountRow]
    /// Signs the data directory's app in to the account (kept for every later launch).
    func signIn(_ accountID: String) async throws(StoreError)
    /// Removes an account from the family: what it shared or was shared ends (`REVOKE`).
    func removeFromFamily(_ accountID: String) async throws(StoreError)
    /// Who shares each of these `FAMILY_SHARED` transactions with the account: the purchaser's
    /// name by transaction ID.
    func sharers(of transactions: [Transaction]) async throws(StoreError) -> [String: String]
    /// The account's auto-renewable subscriptions as the store runs them now, each naming its
    /// latest transaction in `history` (newest first).
    func subscriptions(history: [Transaction]) async throws(StoreError) -> [ManagedSubscription]
    /// Uses up consumables; returns the new balance.
    func consume(_ productID: String, quantity: Int) async throws(StoreError) -> Int

    // MARK: Cancelling as the customer

    /// What the App Store shows a customer who begins to cancel the subscription to
    /// `productID`: the answer of the developer's Get Retention Message endpoint (the store's
    /// realtime URL), else the default message, else none, as Apple does; the exchange is logged.
    func retentionSheet(productID: String) async throws(StoreError) -> RetentionSheet
    /// Carries out the customer's choice on `sheet` through the engine (buys the offer or the
    /// suggested subscription, or turns auto-renew off) and logs it; returns the transaction a
    /// purchase made (nil when cancelling).
    func choose(_ choice: RetentionChoice, on sheet: RetentionSheet) async throws(StoreError) -> String?

    // MARK: The Transaction Manager

    /// Runs one of the Transaction Manager's commands on a transaction (approve, decline,
    /// resolve, refund, reverse a refund, decide a refund request, announce or answer a price
    /// increase, and the customer's refund request); the other effects are not commands.
    func run(_ command: TransactionCommand, transactionID: String) async throws(StoreError)
    /// Runs a subscription command (renew, expire, auto-renew, billing issue); returns the
    /// subscription's latest transaction afterwards (nil: the store knows no subscription).
    func run(_ command: SubscriptionCommand, transactionID: String) async throws(StoreError) -> Transaction?

    // MARK: Settings, notifications and documents

    /// The local store's settings, as the Store Settings window lists them.
    func settings() async throws(StoreError) -> [SettingRow]
    /// Changes a setting (`store set NAME VALUE`).
    func setSetting(name: String, value: String) async throws(StoreError)
    /// The newest `NotificationPage.size` App Store Server Notifications made before position
    /// `before` (the newest of all when nil).
    func notifications(before: Int?) async throws(StoreError) -> NotificationPage
    /// The app receipt, decoded for the viewer.
    func receiptDocument() async throws(StoreError) -> TextDocument
    /// One transaction and its signed payload, decoded for the viewer.
    func transactionDocument(_ transactionID: String) async throws(StoreError) -> TextDocument
}

/// The engine's downloads of hosted content, as the storefront's effects drive them.
/// StoreCore's `DownloadManager` is one.
public protocol StorefrontDownloads: Sendable {
    /// Every download the engine knows, in the order they started.
    func downloads() async -> [Download]
    /// One download, if known.
    func download(id: String) async -> Download?
    /// Starts or resumes a download.
    func resume(_ id: String) async throws(DownloadError)
    /// Pauses a download; returns it as it is then.
    func pause(_ id: String) async throws(DownloadError) -> Download
    /// Cancels a download (its partial bytes are deleted); returns it as it is then.
    func cancel(_ id: String) async throws(DownloadError) -> Download
    /// Waits until a download finishes, fails, pauses or is cancelled; returns it then.
    func waitUntilSettled(_ id: String) async throws(DownloadError) -> Download
}

extension DownloadManager: StorefrontDownloads {}
