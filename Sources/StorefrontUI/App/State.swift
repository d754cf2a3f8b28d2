import Foundation
import StoreKitValues

/// Everything the storefront shows: the root of its screens, as swift-composable-architecture's
/// root feature. Changed only by `reduce`; rendered by `render`.
///
/// The root keeps what every screen reads (the terminal, the clock, where the app shops, what
/// the account has, the status line) and which window is open (`modal`); each screen keeps its
/// own state in a property of its own, changed only by its `Feature` through `scope`.
public struct State: Equatable, Sendable {
    // MARK: The terminal and the clock

    /// The terminal's size.
    public var width: Int
    public var height: Int
    /// The time of the runtime's last tick (nil before the first).
    public var now: Date?
    /// Ticks since start: drives the spinner.
    public var tickCount = 0
    /// The interval (ms) of the animation ticks `reduce` last asked the runtime for (nil: none).
    public var animationInterval: Int?
    /// Whether the app is leaving.
    public var isQuitting = false
    /// The exit status to leave with: 0, or 128 + a signal's number when one ended the app.
    public var exitStatus: Int32 = 0

    // MARK: What every screen reads

    /// Storefront, locale, account (nil until loaded).
    public var context: StoreContext?
    /// The interface's words, in the language of the catalog locale.
    public var strings = Strings(.english)
    /// What the account owns and what waits.
    public var purchases = PurchasesSnapshot()
    /// The base URL of the App Store Server (`storefront serve`) on this data directory, nil
    /// when none runs (as last looked: at start and whenever the menu opens).
    public var serverURL: String?
    /// The message in the status line.
    public var message: StatusMessage?

    // MARK: The screens

    /// The product list, its filter, grouping and sort, and the description beside it.
    public var catalog = CatalogFeature.State()
    /// Everything about one product, with its price in every storefront.
    public var details = DetailsFeature.State()
    /// The purchase sheet: the confirmation, and the purchases under way.
    public var buySheet = BuySheetFeature.State()
    /// The Transaction Manager.
    public var transactionManager = TransactionManagerFeature.State()
    /// My Purchases: history, balances, subscriptions.
    public var myPurchases = MyPurchasesFeature.State()
    /// The cancel sheet: the retention message and the customer's choice.
    public var cancelSheet = CancelSheetFeature.State()
    /// The downloads of hosted content, and their pane.
    public var downloads = DownloadsFeature.State()
    /// Store Settings.
    public var settings = SettingsFeature.State()
    /// The receipt and transaction viewer.
    public var receipt = ReceiptFeature.State()
    /// The App Store Server Notifications window.
    public var notifications = NotificationsFeature.State()
    /// The event log, its pane and its window.
    public var eventLog = EventLogFeature.State()
    /// Every key.
    public var help = HelpFeature.State()
    /// Storefront & Language, and a switch under way.
    public var storefronts = StorefrontsFeature.State()
    /// The question before something that cannot be undone.
    public var questions = QuestionsFeature.State()
    /// The menu, and the menu's own work (restore, receipt refresh).
    public var menu = MenuFeature.State()
    /// Accounts, and the account the storefront leaves to sign in to.
    public var accounts = AccountsFeature.State()

    // MARK: Navigation

    /// The window over the list (nil: none).
    public var modal: Modal?

    /// How long a finished purchase's sheet and a settled download's row stay, in seconds.
    public static let settledLifetime: TimeInterval = 2
    /// The smallest terminal the storefront draws in; below it, a message says so.
    public static let minimumWidth = 60
    public static let minimumHeight = 16

    /// A state for a terminal of the given size, before anything is loaded.
    public init(width: Int = 80, height: Int = 24) {
        self.width = width
        self.height = height
    }

    /// How often the runtime should tick, in milliseconds; nil means never (nothing moves).
    public var tickInterval: Int? {
        if buySheet.isAnimating || menu.isRestoring || (modal == .cancelSheet && cancelSheet.isWaiting) { return 100 }
        if downloads.isAnimating { return 250 }
        if message != nil || downloads.isSettling || buySheet.isSettling { return 500 }
        return nil
    }

    /// Whether the terminal is big enough to draw the storefront.
    public var fitsMinimumSize: Bool { width >= Self.minimumWidth && height >= Self.minimumHeight }
}
