import Foundation
import StoreKitValues

/// Something that happened: a key, a resize, the time, an effect's result, a store event. What
/// happens to one screen is that screen's action, in the case that bears its name (as
/// swift-composable-architecture's parent action wraps each child's); the root's own are the
/// others.
public enum Action: Hashable, Sendable {
    /// The app starts: load everything.
    case started
    /// A key was pressed (the root routes it to the window open, or the list).
    case key(Key)
    /// The terminal's size changed (also sent once at start).
    case resize(width: Int, height: Int)
    /// The time now, sent by the runtime (reduce never reads a clock).
    case tick(Date)
    /// A signal asked the app to leave (SIGINT, SIGTERM, SIGHUP): it quits at once, with the
    /// exit status a shell expects (128 + the signal's number).
    case signal(Int32)

    // MARK: Results every screen reads

    /// Storefront, locale, account and the choices.
    case contextLoaded(Result<StoreContext, StoreError>)
    /// History, balances, ownership, pending transactions.
    case purchasesLoaded(Result<PurchasesSnapshot, StoreError>)
    /// The base URL of the App Store Server running on the data directory; nil when none runs.
    case serverLoaded(String?)
    /// A storefront switch ended with the new context and its products, together.
    case storefrontSwitched(Result<StorefrontSwitch, StoreError>)
    /// The app transaction, verified or not.
    case appTransactionLoaded(Result<VerificationResult<AppTransaction>, StoreError>)

    // MARK: Store events

    /// An event from the engine's observers (payments, restores, receipts, downloads…).
    case storeEvent(StoreEvent)
    /// Another process changed the shared store (a look found it moved since the last one).
    case storeChanged

    // MARK: The screens' own

    /// The product list.
    case catalog(CatalogFeature.Action)
    /// The details window.
    case details(DetailsFeature.Action)
    /// The purchase sheet and the purchases under way.
    case buySheet(BuySheetFeature.Action)
    /// The Transaction Manager.
    case transactionManager(TransactionManagerFeature.Action)
    /// My Purchases.
    case myPurchases(MyPurchasesFeature.Action)
    /// The cancel sheet, over My Purchases.
    case cancelSheet(CancelSheetFeature.Action)
    /// The downloads.
    case downloads(DownloadsFeature.Action)
    /// Store Settings.
    case settings(SettingsFeature.Action)
    /// The receipt and transaction viewer.
    case receipt(ReceiptFeature.Action)
    /// The Server Notifications window.
    case notifications(NotificationsFeature.Action)
    /// The event log.
    case eventLog(EventLogFeature.Action)
    /// The help window.
    case help(HelpFeature.Action)
    /// Storefront & Language.
    case storefronts(StorefrontsFeature.Action)
    /// A question.
    case questions(QuestionsFeature.Action)
    /// The menu.
    case menu(MenuFeature.Action)
    /// Accounts.
    case accounts(AccountsFeature.Action)
}
