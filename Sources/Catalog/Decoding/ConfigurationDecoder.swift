import Foundation

/// Turns a parsed StoreKit Configuration document into a `StoreKitConfiguration`, checking
/// every member it models and keeping the others.
struct ConfigurationDecoder {
    let file: String
    /// Where each product ID was first seen: its array's path and index (the path is built only for an error).
    private var firstSeen: [String: (array: String, index: Int)] = [:]
    /// What was read, but not as written, in file order.
    var warnings: [CatalogWarning] = []
    /// The prices with a fractional part, checked against the storefront in use later.
    var priceSites: [PriceSite] = []

    init(file: String) { self.file = file }

    private static let rootKeys: KnownKeys = [
        "version", "identifier", "products", "nonRenewingSubscriptions", "subscriptionGroups", "settings",
        "subscriptionBundleGroups", "subscriptionSuiteGroups", "appPolicies",
    ]
    private static let productKeys: KnownKeys = [
        "productID", "referenceName", "type", "displayPrice", "familyShareable", "localizations", "codeOffers",
    ]
    private static let subscriptionKeys: KnownKeys = productKeys.union([
        "subscriptionGroupID", "groupNumber", "recurringSubscriptionPeriod", "introductoryOffer", "introductoryOffers",
        "adHocOffers", "codeOffers", "winbackOffers", "billingPlans",
    ])
    static let groupKeys: KnownKeys = ["id", "name", "localizations", "subscriptions"]
    private static let settingsKeys: KnownKeys = [
        "_storefront", "_locale", "_timeRate", "_askToBuyEnabled", "_failTransactionsEnabled", "_storeKitErrors",
        "_disableDialogs", "_billingIssuesEnabled", "_billingGracePeriodEnabled", "_renewalBillingIssuesEnabled",
    ]

    /// The longest product ID App Store Connect accepts, in characters.
    static let maximumProductIDLength = 100
    /// The longest reference name App Store Connect accepts, in characters.
    static let maximumReferenceNameLength = 64

    /// Parses and decodes the bytes of a `.storekit` file, reading the parser's tape in place.
    static func decode(data: Data, file: String) throws(CatalogError) -> StoreKitConfiguration {
        guard data.count <= StoreKitConfiguration.maximumFileSize else {
            throw CatalogError(
                file: file, path: JSONPath.root,
                problem:
                    "is \(data.count) bytes, larger than the \(StoreKitConfiguration.maximumFileSize / 1_048_576) MiB a catalog may be"
            )
        }
        let result: Result<StoreKitConfiguration, CatalogError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            if let problem = UnusableText.problem(in: bytes) {
                return .failure(CatalogError(file: file, path: JSONPath.root, problem: problem))
            }
            let tape: JSONTape
            do throws(JSONParser.SyntaxError) { tape = try JSONParser.tape(bytes) } catch {
                return .failure(error.catalogError(file: file))
            }
            return tape.withRoot(over: bytes) { root in
                var decoder = ConfigurationDecoder(file: file)
                do throws(CatalogError) { return .success(try decoder.decode(root)) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }

    /// Decodes a whole document from its root.
    mutating func decode(_ rootValue: JSONElement) throws(CatalogError) -> StoreKitConfiguration {
        let root = try ObjectReader(rootValue, file: file, path: JSONPath.root, what: "a StoreKit Configuration")
        let version = try decodeVersion(root)
        let settings: CatalogSettings
        if let value = root.member("settings") {
            settings = try decodeSettings(value, path: root.path(of: "settings"))
        } else {
            settings = CatalogSettings()
        }
        var sections: [String: [StoreKitConfiguration.Product]] = [:]
        var groups: [SubscriptionGroup] = []

        let productsPath = root.path(of: "products")
        for (index, element) in try root.optionalArray("products").enumerated() {
            sections["products", default: []].append(
                try decodeProduct(
                    element, parent: productsPath, index: index, allowed: [.consumable, .nonConsumable],
                    section: "products"))
        }
        let nonRenewingPath = root.path(of: "nonRenewingSubscriptions")
        for (index, element) in try root.optionalArray("nonRenewingSubscriptions").enumerated() {
            sections["nonRenewingSubscriptions", default: []].append(
                try decodeProduct(
                    element, parent: nonRenewingPath, index: index, allowed: [.nonRenewing],
                    section: "nonRenewingSubscriptions"))
        }
        let groupsPath = root.path(of: "subscriptionGroups")
        for (index, element) in try root.optionalArray("subscriptionGroups").enumerated() {
            let (group, subscriptions) = try decodeGroup(element, parent: groupsPath, index: index)
            groups.append(group)
            sections["subscriptionGroups", default: []].append(contentsOf: subscriptions)
        }

        // Products follow the file: sections in the order they appear, each in its own order.
        var ordered: [String] = root.keys.filter { sections[$0] != nil }
        for key in ["products", "subscriptionGroups", "nonRenewingSubscriptions"]
        where !ordered.contains(key) && sections[key] != nil {
            ordered.append(key)
        }
        let products = ordered.flatMap { sections[$0] ?? [] }

        var configuration = StoreKitConfiguration(
            file: file, version: version, identifier: try root.optionalString("identifier"),
            products: products, subscriptionGroups: groups, settings: settings, prices: nil,
            extra: root.extra(excluding: Self.rootKeys))
        configuration.subscriptionBundleGroups = try decodeBundleGroups(root, key: "subscriptionBundleGroups", .bundle)
        configuration.subscriptionSuiteGroups = try decodeBundleGroups(root, key: "subscriptionSuiteGroups", .suite)
        if let value = root.member("appPolicies") {
            configuration.appPolicies = try decodeAppPolicies(value, path: root.path(of: "appPolicies"))
        }
        configuration.warnings = warnings
        configuration.priceSites = priceSites
        return configuration
    }

    /// The format version; a newer major version than this build knows is read as the newest
    /// it knows, with one warning, and any member that does not parse is still an error.
    private mutating func decodeVersion(
        _ root: ObjectReader<JSONElement>
    ) throws(CatalogError) -> StoreKitConfiguration.FormatVersion? {
        guard let value = root.member("version") else { return nil }
        let version = try ObjectReader(value, file: file, path: root.path(of: "version"), what: "a format version")
        guard let major = try version.optionalInt("major", minimum: 0) else {
            throw version.error("major", "missing major")
        }
        let read = StoreKitConfiguration.FormatVersion(
            major: major, minor: try version.optionalInt("minor", minimum: 0) ?? 0)
        let newest = StoreKitConfiguration.FormatVersion.newestMajor
        if major > newest {
            warnings.append(
                CatalogWarning(
                    file: file, path: root.path(of: "version"),
                    problem:
                        "format version \(read) is newer than this build knows (up to \(newest)); read as version \(newest), members it does not know are kept as written"
                ))
        }
        return read
    }

    /// The `productID` of the product `object`, element `index` of the array at `parent`: within
    /// App Store Connect's length, free of control characters, and not seen before in the file.
    mutating func productID(
        of object: ObjectReader<JSONElement>, parent: String, index: Int
    ) throws(CatalogError) -> String {
        let id = try object.limited(
            object.nonEmptyString("productID"), "productID", maximum: Self.maximumProductIDLength,
            what: "the product ID")
        if let control = id.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw object.error(
                "productID",
                "product ID \"\(id.debugDescription.dropFirst().dropLast())\" contains the control character U+\(String(format: "%04X", control.value))"
            )
        }
        if let first = firstSeen[id] {
            let firstPath = JSONPath.member("productID", of: JSONPath.element(first.index, of: first.array))
            throw object.error("productID", "duplicate product ID \"\(id)\" (first defined at \(firstPath))")
        }
        firstSeen[id] = (parent, index)
        return id
    }

    mutating func decodeProduct(
        _ value: JSONElement, parent: String, index: Int, allowed: [ProductKind], section: String,
        group: (id: String, name: String)? = nil
    ) throws(CatalogError) -> StoreKitConfiguration.Product {
        let object = try ObjectReader(value, file: file, parent: parent, index: index, what: "a product")
        let id = try productID(of: object, parent: parent, index: index)

        let typeText = try object.string("type")
        guard let kind = ProductKind(rawValue: typeText) else {
            let known = ProductKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw object.error("type", "unknown product type \"\(typeText)\"; expected one of \(known)")
        }
        guard allowed.contains(kind) else {
            let expected = allowed.map(\.rawValue).joined(separator: " or ")
            throw object.error("type", "a \(typeText) product cannot be listed in \(section); expected \(expected)")
        }

        let localizations = try decodeLocalizations(object)

        // A subscription's members are read in the order Xcode writes them (by name), so its
        // warnings come in file order: `adHocOffers`, `billingPlans`, `codeOffers`, `displayPrice`…
        var subscription: StoreKitConfiguration.SubscriptionInfo?
        var codeOffers: [StoreKitConfiguration.OneTimeOffer] = []
        let price: Decimal
        if kind == .autoRenewable, let group {
            (subscription, price) = try decodeSubscription(object, productID: id, group: group)
        } else {
            codeOffers = try decodeOneTimeOffers(object, productID: id)
            price = try readPrice(object, "displayPrice", productID: id)
        }

        return StoreKitConfiguration.Product(
            id: id,
            referenceName: try object.optionalString("referenceName").map { text throws(CatalogError) in
                try object.limited(
                    text, "referenceName", maximum: Self.maximumReferenceNameLength, what: "the reference name")
            } ?? "", kind: kind,
            price: price,
            familyShareable: try object.optionalBool("familyShareable") ?? false,
            localizations: localizations, subscription: subscription, oneTimeCodeOffers: codeOffers,
            extra: object.extra(excluding: kind == .autoRenewable ? Self.subscriptionKeys : Self.productKeys))
    }

    private mutating func decodeGroup(
        _ value: JSONElement, parent: String, index: Int
    ) throws(CatalogError) -> (SubscriptionGroup, [StoreKitConfiguration.Product]) {
        let object = try ObjectReader(value, file: file, parent: parent, index: index, what: "a subscription group")
        let id = try object.nonEmptyString("id")
        let name = try object.optionalString("name") ?? id
        let localizations = try decodeGroupLocalizations(object)
        var subscriptions: [StoreKitConfiguration.Product] = []
        let subscriptionsPath = object.path(of: "subscriptions")
        for (index, element) in try object.optionalArray("subscriptions").enumerated() {
            subscriptions.append(
                try decodeProduct(
                    element, parent: subscriptionsPath, index: index,
                    allowed: [.autoRenewable], section: "a subscription group", group: (id, name)))
        }
        let group = SubscriptionGroup(
            id: id, name: name, localizations: localizations, productIDs: subscriptions.map(\.id),
            extra: object.extra(excluding: Self.groupKeys))
        return (group, subscriptions)
    }

    private mutating func decodeSettings(_ value: JSONElement, path: String) throws(CatalogError) -> CatalogSettings {
        let object = try ObjectReader(value, file: file, path: path, what: "settings")
        var errors: [StoreKitErrorSetting] = []
        for (index, element) in try object.optionalArray("_storeKitErrors").enumerated() {
            let entry = try ObjectReader(
                element, file: file, path: JSONPath.element(index, of: object.path(of: "_storeKitErrors")),
                what: "a StoreKit error setting")
            let current = entry.member("current")?.value
            errors.append(
                StoreKitErrorSetting(
                    name: try entry.string("name"), enabled: try entry.optionalBool("enabled") ?? false,
                    current: current))
        }
        let storefront = try object.optionalString("_storefront")
        if let storefront, Storefront.named(storefront) == nil {
            throw object.error(
                "_storefront",
                "unknown storefront \"\(storefront)\"; expected an ISO 3166 alpha-3 code from the storefront table, e.g. USA, JPN, DEU"
            )
        }
        return CatalogSettings(
            storefront: storefront,
            locale: try object.optionalString("_locale"),
            timeRate: try object.optionalInt("_timeRate", minimum: 0),
            askToBuyEnabled: try object.optionalBool("_askToBuyEnabled"),
            failTransactionsEnabled: try object.optionalBool("_failTransactionsEnabled"),
            storeKitErrors: errors,
            disableDialogs: try object.optionalBool("_disableDialogs"),
            billingIssuesEnabled: try object.optionalBool("_billingIssuesEnabled"),
            billingGracePeriodEnabled: try object.optionalBool("_billingGracePeriodEnabled"),
            renewalBillingIssuesEnabled: try object.optionalBool("_renewalBillingIssuesEnabled"),
            extra: object.extra(excluding: Self.settingsKeys))
    }
}
