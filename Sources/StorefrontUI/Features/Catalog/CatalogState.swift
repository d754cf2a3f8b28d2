import StoreKitValues

extension CatalogFeature {
    /// The products and the list of them as shown: measured and indexed once per load, grouped,
    /// sorted, filtered, with the selection and the scroll position.
    public struct State: ScreenState {
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

        /// The list before anything is loaded.
        public init() {}

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

        /// The words of the filter, for highlighting them.
        var filterWords: [String] {
            filter.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        }

        /// The English name of the grouping (localized through `Strings`).
        var groupingLabel: String {
            switch grouping {
            case .subscriptionGroup: "by type and subscription group"
            case .type: "by type"
            case .none: "none"
            }
        }

        /// The English name of the sort order (localized through `Strings`).
        var sortLabel: String {
            switch sort {
            case .catalog: "catalog order"
            case .name: "name"
            case .price: "price"
            case .type: "type"
            }
        }
    }
}

/// The products one filter query matches.
public struct FilterStep: Hashable, Sendable {
    /// The query.
    public var query: String
    /// The matching products, by index, in catalog order.
    public var matches: [Int]
    /// The query's words, folded (empty: not known, so a longer query checks all of its own).
    public var words: [[UInt8]] = []
    /// For each match, where the query's last word first occurs in its search text (empty:
    /// not known).
    public var hits: [Int32] = []
}
