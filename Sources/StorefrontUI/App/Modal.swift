/// Which window is over the product list, swift-composable-architecture's destination: each
/// window's own state (its selection, its scroll) is its screen's, in the root `State`.
public indirect enum Modal: Hashable, Sendable {
    /// The App Store-like sheet before buying (`BuySheetFeature.State.confirmation`).
    case confirm
    /// A purchase under way: its phases and progress bar (`BuySheetFeature.State.watching`).
    case purchase
    /// The menu.
    case menu
    /// Every key.
    case help
    /// Storefront & Language.
    case storefronts
    /// Accounts.
    case accounts
    /// Store Settings.
    case settings
    /// The Transaction Manager.
    case transactions
    /// The store's App Store Server Notifications.
    case notifications
    /// My Purchases.
    case purchases
    /// Cancelling a subscription from My Purchases: the retention message and the choices.
    case cancelSheet
    /// Everything about one product.
    case details
    /// A receipt or a transaction, decoded; Esc goes back to `over`.
    case document(over: Modal?)
    /// The event log.
    case log
    /// A question before something that cannot be undone; No goes back to `over`.
    case question(over: Modal?)
}
