import Foundation
import StoreCore

/// Everything the storefront shows. Changed only by `reduce`; rendered by `render`.
public struct State: Equatable, Sendable {
    /// The terminal's size.
    public var width: Int
    public var height: Int
    /// The time of the runtime's last tick (nil before the first).
    public var now: Date?
    /// Ticks since start: drives the spinner.
    public var tickCount = 0

    /// Storefront, locale, account (nil until loaded).
    public var context: StoreContext?
    /// The interface's words, in the language of the catalog locale.
    public var strings = Strings(.english)
    /// The storefront a switch is under way to (its products not loaded yet).
    public var switchingTo: String?

    /// The products in catalog order (nil until the first load answers).
    public var products: [Product]?
    /// The last products load failed with this.
    public var productsError: StoreError?
    /// Every product's search text (built once per load).
    public var search = ProductSearch.empty
    /// Every product's shown price and the widths the list's columns need (built once per load).
    public var metrics = ProductMetrics.empty
    /// Every product grouped and sorted, before the filter.
    public var sections: [ProductListing.Section] = []
    /// The list as shown (filtered, grouped and sorted).
    public var listing = ProductListing.empty
    /// How the list is grouped.
    public var grouping: ProductListing.Grouping = .subscriptionGroup
    /// How the list is sorted within its groups.
    public var sort: ProductListing.Sort = .catalog
    /// The filter text.
    public var filter = ""
    /// The matches of each prefix of the filter typed so far: a longer query narrows the
    /// last one's matches, Backspace goes back one.
    public var filterSteps: [FilterStep] = []
    /// Whether keys go into the filter field.
    public var isFiltering = false
    /// The selected row of `listing`.
    public var selectedRow = 0
    /// The first row of `listing` on screen.
    public var scrollTop = 0

    /// What the account owns and what waits.
    public var purchases = PurchasesSnapshot()
    /// The store's settings.
    public var settings: [SettingRow] = []
    /// The store's App Store Server Notifications the Notifications window loaded, oldest
    /// first: the newest page, and each older page the window was moved up into.
    public var notifications: [NotificationRow] = []
    /// The position before which older notifications are still to load (the oldest loaded
    /// page's `NotificationPage.older`); nil when `notifications` begins with the first one.
    public var olderNotifications: Int?
    /// The `before` of the older page being loaded, if one is (one at a time).
    public var loadingNotificationsBefore: Int?
    /// The base URL of the App Store Server (`storefront serve`) on this data directory, nil
    /// when none runs (as last looked: at start and whenever the menu opens).
    public var serverURL: String?
    /// Purchases under way (or just done, until their sheet closes), by product ID.
    public var flows: [String: PurchaseFlow] = [:]
    /// Downloads, in the order they first appeared.
    public var downloads: [Download] = []
    /// When each download that settled this session did (finished and cancelled ones stay on
    /// screen a moment at their last state).
    public var settledAt: [String: Date] = [:]
    /// Whether a restore is under way.
    public var isRestoring = false
    /// The selected product's price in every storefront (loaded for the details window).
    public var priceComparison: PriceComparison?
    /// The receipt or transaction the viewer shows.
    public var document: TextDocument?

    /// The window over the list.
    public var modal: Modal?
    /// Whether the event log pane shows.
    public var showsLog = false
    /// The event log, oldest first (the last `logLimit` entries).
    public var log: [LogEntry] = []
    /// The message in the status line.
    public var message: StatusMessage?
    /// Whether the app is leaving.
    public var isQuitting = false
    /// The exit status to leave with: 0, or 128 + a signal's number when one ended the app.
    public var exitStatus: Int32 = 0
    /// The interval (ms) of the animation ticks `reduce` last asked the runtime for (nil: none).
    public var animationInterval: Int?

    /// How often the storefront looks whether another process changed the shared store.
    public static let storeLookInterval: Duration = .seconds(2)
    /// The most entries the log keeps.
    public static let logLimit = 500
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

    /// The selected product, if the selection is on one.
    public var selectedProduct: Product? {
        guard let products, let index = listing.productIndex(at: selectedRow), index < products.count else {
            return nil
        }
        return products[index]
    }

    /// The product with an identifier.
    public func product(_ id: String) -> Product? {
        guard let products, let index = metrics.position[id], index < products.count else {
            return products?.first { $0.id == id }
        }
        return products[index]
    }

    /// The downloads under way (not finished, failed or cancelled).
    public var activeDownloads: [Download] { downloads.filter { !$0.state.isTerminal } }

    /// How often the runtime should tick, in milliseconds; nil means never (nothing moves).
    public var tickInterval: Int? {
        if flows.values.contains(where: { $0.phase < .done }) || isRestoring { return 100 }
        if downloads.contains(where: { $0.state == .active || $0.state == .waiting }) { return 250 }
        if message != nil || !settledAt.isEmpty || flows.values.contains(where: { $0.finishedAt != nil }) { return 500 }
        return nil
    }

    /// Whether the terminal is big enough to draw the storefront.
    public var fitsMinimumSize: Bool { width >= Self.minimumWidth && height >= Self.minimumHeight }
}

/// The products one filter query matches.
public struct FilterStep: Hashable, Sendable {
    /// The query.
    public var query: String
    /// The matching products, by index, in catalog order.
    public var matches: [Int]
    /// The query's words, folded (empty: not known, so a longer query checks all of its own).
    public var words: [[UInt8]]
    /// For each match, where the query's last word first occurs in its search text (empty:
    /// not known).
    public var hits: [Int32]

    /// A step: a query, its matches, and what a longer query may skip checking again.
    public init(query: String, matches: [Int], words: [[UInt8]] = [], hits: [Int32] = []) {
        self.query = query
        self.matches = matches
        self.words = words
        self.hits = hits
    }
}
