import Foundation
import StoreCore

/// Something that happened: a key, a resize, the time, an effect's result, a store event.
public enum Action: Hashable, Sendable {
    /// The app starts: load everything.
    case started
    /// A key was pressed.
    case key(Key)
    /// The terminal's size changed (also sent once at start).
    case resize(width: Int, height: Int)
    /// The time now, sent by the runtime (reduce never reads a clock).
    case tick(Date)
    /// A signal asked the app to leave (SIGINT, SIGTERM, SIGHUP): it quits at once, with the
    /// exit status a shell expects (128 + the signal's number).
    case signal(Int32)

    // MARK: Results of effects

    /// Storefront, locale, account and the choices.
    case contextLoaded(Result<StoreContext, StoreError>)
    /// The products, localized.
    case productsLoaded(Result<[Product], StoreError>)
    /// History, balances, ownership, pending transactions.
    case purchasesLoaded(Result<PurchasesSnapshot, StoreError>)
    /// The store's settings.
    case settingsLoaded(Result<[SettingRow], StoreError>)
    /// A page of the store's App Store Server Notifications, the one `.loadNotifications(before:)` asked for.
    case notificationsLoaded(before: Int?, Result<NotificationPage, StoreError>)
    /// A purchase moved on to a new step.
    case purchasePhase(productID: String, PurchasePhase)
    /// A purchase was delivered with content still to download: the sheet follows it.
    case purchaseNeedsDownload(productID: String, downloadID: String)
    /// A purchase's download stopped: finished, failed, paused or cancelled (nil: unknown).
    case purchaseDownloadSettled(productID: String, Download?)
    /// A purchase ended.
    case purchaseFinished(productID: String, Result<PurchaseOutcome, StoreError>)
    /// A restore ended with the restored transactions.
    case restoreFinished(Result<[Transaction], StoreError>)
    /// A receipt refresh ended with the receipt's size in bytes.
    case receiptRefreshed(Result<Int, StoreError>)
    /// A Transaction Manager command ended.
    case transactionCommandFinished(TransactionCommand, Result<String, StoreError>)
    /// A subscription command of the Transaction Manager ended with the subscription as it is now.
    case subscriptionCommandFinished(SubscriptionCommand, Result<ManagedSubscription, StoreError>)
    /// Consuming ended with the product's new balance.
    case consumed(productID: String, Result<Int, StoreError>)
    /// A setting change was refused or applied (the settings come back with it).
    case settingChanged(name: String, value: String, Result<[SettingRow], StoreError>)
    /// A storefront switch ended with the new context and its products, together.
    case storefrontSwitched(Result<StorefrontSwitch, StoreError>)
    /// The base URL of the App Store Server running on the data directory; nil when none runs.
    case serverLoaded(String?)
    /// A product's price in every storefront.
    case priceComparisonLoaded(productID: String, [StorefrontPrice])
    /// A receipt or a transaction, decoded for the viewer.
    case documentLoaded(Result<TextDocument, StoreError>)

    /// The app transaction, verified or not.
    case appTransactionLoaded(Result<VerificationResult<AppTransaction>, StoreError>)

    // MARK: Store events

    /// An event from the engine's observers (payments, restores, receipts, downloads…).
    case storeEvent(StoreEvent)
    /// Another process changed the shared store (a look found it moved since the last one).
    case storeChanged
}
