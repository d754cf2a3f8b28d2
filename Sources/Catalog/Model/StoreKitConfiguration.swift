import Foundation
internal import SystemIO

/// An Xcode StoreKit Configuration file (`.storekit`, format versions 1 to 6), with its
/// optional price sidecar: every product, subscription group and setting it holds.
///
/// Load one with `load(contentsOf:)`; a problem that makes the file unusable is one
/// `CatalogError` naming the file, the JSON path and what is wrong; what was read, but not as
/// written, is a `CatalogWarning` in `warnings` (and `priceWarnings(for:)` for the storefront in use).
public struct StoreKitConfiguration: Sendable, Hashable {
    /// The file format version (`version`: `major`.`minor`).
    public struct FormatVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The major version, e.g. 5.
        public var major: Int
        /// The minor version, e.g. 0.
        public var minor: Int

        /// The newest major version this build knows (Xcode's formats 1 to 6). A newer file is
        /// read as this version, with a warning, as long as what it holds parses.
        public static let newestMajor = 6

        /// `major.minor`, e.g. `5.0`.
        public var description: String { "\(major).\(minor)" }

        /// Orders by major, then minor.
        public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }
    }

    /// The file's path as it was given, for messages.
    public var file: String
    /// The format version, `nil` when the file has none.
    public var version: FormatVersion?
    /// The file's `identifier`, when present.
    public var identifier: String?
    /// Every product in file order: the sections (`products`, `nonRenewingSubscriptions`,
    /// `subscriptionGroups`) in the order they appear, each section's products in order.
    public private(set) var products: [Product]
    /// The subscription groups, in file order.
    public var subscriptionGroups: [SubscriptionGroup]
    /// The `settings` block.
    public var settings: CatalogSettings
    /// Per-storefront prices from the sidecar beside the file, `nil` when there is none.
    public var prices: PriceTable?
    /// Hosted content from the sidecar directory `NAME.content/`, by product ID.
    public var content: [String: HostedContent] = [:]
    /// Self-hosted content from `NAME.content/hosting.json`: base URLs by product ID.
    public var contentHosting: [String: URL] = [:]
    /// The subscription bundle groups (`subscriptionBundleGroups`, format 6), read but not sold.
    public var subscriptionBundleGroups: [SubscriptionBundleGroup] = []
    /// The subscription suite groups (`subscriptionSuiteGroups`, format 6), read but not sold.
    public var subscriptionSuiteGroups: [SubscriptionBundleGroup] = []
    /// The app's license agreement and privacy policies (`appPolicies`), when the file has them.
    public var appPolicies: AppPolicies?
    /// Top-level members the catalog does not model (`subscriptionOffersKeyPair`, …).
    public var extra: [String: JSONValue]
    /// What was read, but not as written (a newer format version, a decimal comma), in file
    /// order. Prices the storefront in use cannot charge exactly are `priceWarnings(for:)`.
    public var warnings: [CatalogWarning] = []

    private var indexByID: [String: Int]
    /// The prices with a fractional part, for `priceWarnings(for:)`.
    var priceSites: [PriceSite] = []

    /// Creates a configuration from its parts; product identifiers must be unique.
    public init(
        file: String, version: FormatVersion? = nil, identifier: String? = nil, products: [Product],
        subscriptionGroups: [SubscriptionGroup] = [], settings: CatalogSettings = CatalogSettings(),
        prices: PriceTable? = nil, extra: [String: JSONValue] = [:]
    ) {
        self.file = file
        self.version = version
        self.identifier = identifier
        self.products = products
        self.subscriptionGroups = subscriptionGroups
        self.settings = settings
        self.prices = prices
        self.extra = extra
        var index: [String: Int] = [:]
        for (position, product) in products.enumerated() where index[product.id] == nil { index[product.id] = position }
        self.indexByID = index
    }

    /// The product with identifier `id`, if the catalog has it.
    public func product(id: String) -> Product? {
        indexByID[id].map { products[$0] }
    }

    /// The price sidecar's location for a catalog: `NAME.prices.json` beside `NAME.storekit`.
    public static func priceSidecarURL(for catalog: URL) -> URL {
        catalog.deletingPathExtension().appendingPathExtension("prices.json")
    }

    /// Reads and decodes a `.storekit` file, then its price sidecar and its content sidecar
    /// (`NAME.content/`, see `HostedContentLoader`) when they are beside it.
    ///
    /// - Parameters:
    ///   - url: the `.storekit` file.
    ///   - contentDigester: when given, hosted content files are checked against their SHA-256 too.
    ///   - contentFiles: whose hosted content files are checked against their manifests (every
    ///     manifest is read whatever is chosen).
    /// - Returns: the configuration, with `prices` set when `NAME.prices.json` exists.
    /// - Throws: `CatalogError` naming the catalog or the sidecar file, the JSON path and the problem.
    public static func load(
        contentsOf url: URL, contentDigester: ContentDigester? = nil, contentFiles: ContentFileCheck = .all
    ) throws(CatalogError) -> StoreKitConfiguration {
        // Each path is asked of its URL once: `URL.path` decodes the URL's text again at every call.
        let path = url.path
        var configuration = try decode(data: try read(url, as: path, expected: "a .storekit file"), file: path)
        let sidecar = priceSidecarURL(for: url)
        let sidecarPath = sidecar.path
        if FileManager.default.fileExists(atPath: sidecarPath) {
            configuration.prices = try PriceTable.decode(
                data: try read(sidecar, as: sidecarPath, expected: "a price sidecar (NAME.prices.json)"),
                file: sidecarPath,
                productIDs: Set(configuration.products.map(\.id)))
        }
        let content = HostedContentLoader.sidecarURL(for: url)
        if FileManager.default.fileExists(atPath: content.path) {
            configuration.content = try HostedContentLoader.load(
                directory: content, products: configuration.products, digester: contentDigester,
                files: contentFiles)
            configuration.contentHosting = try HostedContentLoader.loadHosting(
                directory: content, products: configuration.products, hosted: Set(configuration.content.keys))
        }
        return configuration
    }

    /// Decodes the bytes of a `.storekit` file (no sidecar).
    ///
    /// - Parameters:
    ///   - data: the file's contents, UTF-8 JSON.
    ///   - file: the name to use in errors and in `file`.
    /// - Throws: `CatalogError` for an empty file, text that is not JSON or does not describe a
    ///   valid catalog.
    public static func decode(data: Data, file: String) throws(CatalogError) -> StoreKitConfiguration {
        try ConfigurationDecoder.decode(data: data, file: file)
    }

    static func parseJSON(_ data: Data, file: String) throws(CatalogError) -> JSONParser.Document {
        let result: Result<JSONParser.Document, JSONParser.SyntaxError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            do throws(JSONParser.SyntaxError) { return .success(try JSONParser.parse(bytes)) } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let document): return document
        case .failure(let syntax): throw syntax.catalogError(file: file)
        }
    }

    /// The largest catalog or sidecar file read (256 MiB); a generated 10,000-product,
    /// 20-locale catalog is about 33 MiB.
    public static let maximumFileSize = 256 * 1024 * 1024

    /// The bytes of the catalog or sidecar file at `url`, whose path is `path` (named in errors).
    /// - Parameter expected: what the file should be, said when it is a directory
    ///   ("a .storekit file", "a price sidecar (NAME.prices.json)").
    private static func read(_ url: URL, as path: String, expected: String) throws(CatalogError) -> Data {
        // One `stat` through SystemIO, links followed: Foundation's `attributesOfItem` builds a
        // dictionary of every attribute and casts each one out of `Any`.
        let status: FileStatus?
        do {
            status = try POSIXFileSystem().status(atPath: path, followingLinks: true)
        } catch {
            throw CatalogError(file: path, path: JSONPath.root, problem: "cannot read the file: \(error.errno)")
        }
        guard let status else {
            throw CatalogError(file: path, path: JSONPath.root, problem: "no such file")
        }
        guard !status.isDirectory else {
            throw CatalogError(file: path, path: JSONPath.root, problem: "is a directory, expected \(expected)")
        }
        // Devices and pipes (`/dev/zero`, a FIFO) would never end: only regular files are read.
        guard status.isRegularFile else {
            throw CatalogError(file: path, path: JSONPath.root, problem: "is not a regular file")
        }
        if status.size > UInt64(maximumFileSize) {
            throw CatalogError(
                file: path, path: JSONPath.root,
                problem: "is \(status.size) bytes, larger than the \(maximumFileSize / 1_048_576) MiB a catalog may be")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CatalogError(
                file: path, path: JSONPath.root, problem: "cannot read the file: \(error.localizedDescription)")
        }
    }
}

extension StoreKitConfiguration {
    /// The price of `product` in `storefront`: the sidecar's when it sets one, else an
    /// estimate, the catalog's `displayPrice` read in the storefront's currency as Xcode does,
    /// rounded to that currency's minor units (`Price.roundedToMinorUnits`: 0.99 is ₩1).
    ///
    /// This is the one place a price is estimated, so what a customer is shown, what is
    /// charged and what receipts and signed transactions carry are the same amount; a
    /// currency without decimals never charges a fraction.
    /// - Parameters:
    ///   - product: a product of this catalog.
    ///   - storefront: where the customer shops.
    public func price(for product: Product, in storefront: Storefront) -> Price {
        prices?.price(of: product.id, in: storefront)
            ?? Price(amount: product.price, currencyCode: storefront.currencyCode).roundedToMinorUnits
    }

    /// The price of `offer`, a subscription offer of `product`, in `storefront`: 0 for a free
    /// offer; else the catalog's offer price scaled as the product's price is there
    /// (`scaled(_:for:in:)`).
    ///
    /// This is the one rule an offer is priced by, so what the listing shows, what the first
    /// offer period and each discounted renewal are charged, and what renewal info, signed
    /// transactions and receipts carry are the same amount: in JPN a 4.99 offer on a 9.99
    /// subscription sold at ¥1,600 is ¥799, in KOR (an estimate, ₩10) it is ₩5.
    /// - Parameters:
    ///   - offer: an introductory, promotional, offer-code or win-back offer of `product`.
    ///   - product: the subscription the offer is for.
    ///   - storefront: where the customer shops.
    public func price(of offer: SubscriptionOffer, for product: Product, in storefront: Storefront) -> Price {
        guard offer.paymentMode != .free else {
            return Price(amount: 0, currencyCode: storefront.currencyCode)
        }
        return scaled(offer.price, for: product, in: storefront)
    }

    /// The price of `offer`, a code offer of the one-time `product`, in `storefront`: the offer's
    /// `displayPrice` scaled as the product's price is there (`scaled(_:for:in:)`); 0 when free.
    /// - Parameters:
    ///   - offer: one of `product.oneTimeCodeOffers`.
    ///   - product: the consumable, non-consumable or non-renewing subscription the offer is for.
    ///   - storefront: where the customer shops.
    public func price(of offer: OneTimeOffer, for product: Product, in storefront: Storefront) -> Price {
        scaled(offer.price, for: product, in: storefront)
    }

    /// What each payment of `plan`, a billing plan of `product`, costs in `storefront`: the
    /// plan's `displayPrice` scaled as the product's price is there (`scaled(_:for:in:)`).
    /// - Parameters:
    ///   - plan: one of the product's billing plans.
    ///   - product: the subscription the plan is for.
    ///   - storefront: where the customer shops.
    public func price(of plan: BillingPlan, for product: Product, in storefront: Storefront) -> Price {
        scaled(plan.price, for: product, in: storefront)
    }

    /// What the whole commitment of `plan` costs in `storefront`; `nil` when the file gives no
    /// `commitmentDisplayPrice`. A commitment the file prices as a whole number of payments (Xcode
    /// writes 12 × the monthly price, 1 × the up-front one) is that many payments as priced in
    /// `storefront`, so the customer is told what the payments add up to; any other is scaled
    /// by the same rule as each payment.
    /// - Parameters:
    ///   - plan: one of the product's billing plans.
    ///   - product: the subscription the plan is for.
    ///   - storefront: where the customer shops.
    public func commitmentPrice(of plan: BillingPlan, for product: Product, in storefront: Storefront) -> Price? {
        guard let total = plan.commitmentPrice else { return nil }
        if plan.price > 0 {
            var payments = total / plan.price
            var whole = Decimal()
            NSDecimalRound(&whole, &payments, 0, .plain)
            if whole == payments, whole > 0 {
                var payment = price(of: plan, for: product, in: storefront)
                payment.amount *= whole
                return payment
            }
        }
        return scaled(total, for: product, in: storefront)
    }

    /// An amount the file writes for `product` (an offer's or a billing plan's price), in
    /// `storefront`: scaled by the product's price there over its base price when the price
    /// sidecar sets a different one, then rounded to the currency's minor units. Rounding the
    /// base price alone does not scale: a "4.80" product with a "2.40" offer in yen is ¥5 and ¥2.
    private func scaled(_ amount: Decimal, for product: Product, in storefront: Storefront) -> Price {
        let listed = price(for: product, in: storefront)
        let estimate = Price(amount: product.price, currencyCode: listed.currencyCode).roundedToMinorUnits
        var amount = amount
        if product.price > 0, listed.amount != estimate.amount {
            amount = amount * listed.amount / product.price
        }
        return Price(amount: amount, currencyCode: listed.currencyCode).roundedToMinorUnits
    }

    /// The storefront the catalog names in `_storefront`, else the United States.
    public var defaultStorefront: Storefront { defaultStorefrontChoice.storefront }
}
