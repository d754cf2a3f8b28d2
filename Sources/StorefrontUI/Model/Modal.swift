/// The window over the product list, if any. Each keeps its own selection.
public enum Modal: Hashable, Sendable {
    /// The App Store-like sheet before buying: product, price, account.
    case confirm(productID: String)
    /// A purchase under way: its phases and progress bar.
    case purchase(productID: String)
    /// The menu, with its selected row.
    case menu(selected: Int)
    /// Every key.
    case help
    /// Storefront & Language: a storefront list and a locale list; `column` 0 or 1 has focus.
    case storefronts(storefront: Int, locale: Int, column: Int)
    /// Store Settings, with its selected row.
    case settings(selected: Int)
    /// Transaction Manager, with its selected row.
    case transactions(selected: Int)
    /// My Purchases: tab 0 history, 1 balances, 2 subscriptions.
    case purchases(tab: Int, selected: Int)
}

/// The items of the menu, in order, with the key that opens each from anywhere.
public enum MenuItem: Int, CaseIterable, Hashable, Sendable {
    case restore, refreshReceipt, storefront, settings, transactionManager, myPurchases, quit

    /// The English label (localized through `Strings`).
    public var label: String {
        switch self {
        case .restore: "Restore Purchases"
        case .refreshReceipt: "Refresh Receipt"
        case .storefront: "Storefront & Language"
        case .settings: "Store Settings"
        case .transactionManager: "Transaction Manager"
        case .myPurchases: "My Purchases"
        case .quit: "Quit"
        }
    }

    /// The key that runs this item from the product list or the menu.
    public var key: Character {
        switch self {
        case .restore: "r"
        case .refreshReceipt: "e"
        case .storefront: "s"
        case .settings: "o"
        case .transactionManager: "t"
        case .myPurchases: "p"
        case .quit: "q"
        }
    }
}
