/// The items of the menu, in order, with the key that opens each from anywhere.
public enum MenuItem: Int, CaseIterable, Hashable, Sendable {
    case restore, refreshReceipt, viewReceipt, storefront, accounts, settings, transactionManager, myPurchases,
        eventLog, notifications, quit

    /// The English label (localized through `Strings`).
    public var label: String {
        switch self {
        case .restore: "Restore Purchases"
        case .refreshReceipt: "Refresh Receipt"
        case .viewReceipt: "View Receipt"
        case .storefront: "Storefront & Language"
        case .accounts: "Switch Account"
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
        case .accounts: "A"
        case .settings: "o"
        case .transactionManager: "t"
        case .myPurchases: "p"
        case .eventLog: "L"
        case .notifications: "N"
        case .quit: "q"
        }
    }
}
