/// The window over the product list, if any. Each keeps its own selection or scroll position.
public enum Modal: Hashable, Sendable {
    /// The App Store-like sheet before buying: product, price, account, with the quantity
    /// (consumables) and the offer chosen (0: none or the introductory offer; n: the product's
    /// n-th promotional offer).
    case confirm(productID: String, quantity: Int = 1, offer: Int = 0)
    /// A purchase under way: its phases and progress bar.
    case purchase(productID: String)
    /// The menu, with its selected row.
    case menu(selected: Int)
    /// Every key, scrolled down `scroll` lines.
    case help(scroll: Int = 0)
    /// Storefront & Language: a storefront list and a locale list; `column` 0 or 1 has focus.
    case storefronts(storefront: Int, locale: Int, column: Int)
    /// Store Settings, with its selected row.
    case settings(selected: Int)
    /// Transaction Manager, with its selected row.
    case transactions(selected: Int)
    /// The store's App Store Server Notifications, with the selected row.
    case notifications(selected: Int)
    /// My Purchases: tab 0 history, 1 balances, 2 subscriptions.
    case purchases(tab: Int, selected: Int)
    /// Everything about one product, with its price in every storefront, scrolled `scroll` lines.
    case details(productID: String, scroll: Int = 0)
    /// A receipt or a transaction, decoded (`State.document`), scrolled `scroll` lines; Esc
    /// goes back to `over`.
    indirect case document(scroll: Int, over: Modal?)
    /// The event log, newest last, with its selected entry; `showsDetail` shows that entry whole.
    case log(selected: Int, showsDetail: Bool = false)
    /// A question before something that cannot be undone; No goes back to `over`.
    indirect case question(Question, over: Modal?)
}

/// What the storefront asks before doing something that cannot be undone.
public enum Question: Hashable, Sendable {
    /// Refund a transaction (it is revoked; the app loses what it bought).
    case refund(transactionID: String, productID: String)
    /// End a subscription now.
    case expire(transactionID: String, productID: String)
    /// Quit while downloads are under way (they carry on at the next launch).
    case quit(downloads: Int)
    /// Cancel a download (its partial bytes are deleted).
    case cancelDownload(id: String, productID: String)

    /// What Yes does.
    var effect: Effect {
        switch self {
        case .refund(let id, _): .transactionCommand(.refund, transactionID: id)
        case .expire(let id, _): .subscriptionCommand(.expire, transactionID: id)
        case .quit: .quit
        case .cancelDownload(let id, _): .cancelDownload(id: id)
        }
    }
}

/// The items of the menu, in order, with the key that opens each from anywhere.
public enum MenuItem: Int, CaseIterable, Hashable, Sendable {
    case restore, refreshReceipt, viewReceipt, storefront, settings, transactionManager, myPurchases, eventLog,
        notifications, quit

    /// The English label (localized through `Strings`).
    public var label: String {
        switch self {
        case .restore: "Restore Purchases"
        case .refreshReceipt: "Refresh Receipt"
        case .viewReceipt: "View Receipt"
        case .storefront: "Storefront & Language"
        case .settings: "Store Settings"
        case .transactionManager: "Transaction Manager"
        case .myPurchases: "My Purchases"
        case .eventLog: "Event Log"
        case .notifications: "Server Notifications"
        case .quit: "Quit"
        }
    }

    /// The key that runs this item from the product list or the menu.
    public var key: Character {
        switch self {
        case .restore: "r"
        case .refreshReceipt: "e"
        case .viewReceipt: "v"
        case .storefront: "s"
        case .settings: "o"
        case .transactionManager: "t"
        case .myPurchases: "p"
        case .eventLog: "L"
        case .notifications: "N"
        case .quit: "q"
        }
    }
}
