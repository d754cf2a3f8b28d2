import Foundation

/// Turns a parsed StoreKit Configuration document into a `StoreKitConfiguration`, checking
/// every member it models and keeping the others.
struct ConfigurationDecoder {
    let file: String
    /// Where each product ID was first seen: its array's path and index (the path is built only for an error).
    private var firstSeen: [String: (array: String, index: Int)] = [:]
    /// The currency of the catalog's storefront, which base prices are written in.
    private var baseCurrency = Storefront.unitedStates.currencyCode

    init(file: String) { self.file = file }

    private static let rootKeys: KnownKeys = [
        "version", "identifier", "products", "nonRenewingSubscriptions", "subscriptionGroups", "settings",
    ]
    private static let productKeys: KnownKeys = [
        "productID", "referenceName", "type", "displayPrice", "familyShareable", "localizations",
    ]
    private static let subscriptionKeys: KnownKeys = productKeys.union([
        "subscriptionGroupID", "groupNumber", "recurringSubscriptionPeriod", "introductoryOffer", "introductoryOffers",
        "adHocOffers", "codeOffers", "winbackOffers",
    ])
    private static let offerKeys: KnownKeys = [
        "offerID", "referenceName", "paymentMode", "subscriptionPeriod", "numberOfPeriods", "displayPrice",
        "eligibility",
    ]
    private static let groupKeys: KnownKeys = ["id", "name", "localizations", "subscriptions"]
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
        // Settings first: the storefront they name decides the currency base prices are in.
        let settings: CatalogSettings
        if let value = root.member("settings") {
            settings = try decodeSettings(value, path: root.path(of: "settings"))
        } else {
            settings = CatalogSettings()
        }
        baseCurrency = (settings.storefront.flatMap(Storefront.named) ?? Storefront.unitedStates).currencyCode
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

        return StoreKitConfiguration(
            file: file, version: version, identifier: try root.optionalString("identifier"),
            products: products, subscriptionGroups: groups, settings: settings, prices: nil,
            extra: root.extra(excluding: Self.rootKeys))
    }

    private func decodeVersion(
        _ root: ObjectReader<JSONElement>
    ) throws(CatalogError) -> StoreKitConfiguration.FormatVersion? {
        guard let value = root.member("version") else { return nil }
        let version = try ObjectReader(value, file: file, path: root.path(of: "version"), what: "a format version")
        guard let major = try version.optionalInt("major", minimum: 0) else {
            throw version.error("major", "missing major")
        }
        let newest = StoreKitConfiguration.FormatVersion.newestMajor
        guard major <= newest else {
            throw version.error(
                "major", "format version \(major) is newer than this build reads (up to \(newest)); update storefront")
        }
        return StoreKitConfiguration.FormatVersion(
            major: major, minor: try version.optionalInt("minor", minimum: 0) ?? 0)
    }

    private mutating func decodeProduct(
        _ value: JSONElement, parent: String, index: Int, allowed: [ProductKind], section: String,
        group: (id: String, name: String)? = nil
    ) throws(CatalogError) -> StoreKitConfiguration.Product {
        let object = try ObjectReader(value, file: file, parent: parent, index: index, what: "a product")
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

        let typeText = try object.string("type")
        guard let kind = ProductKind(rawValue: typeText) else {
            let known = ProductKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw object.error("type", "unknown product type \"\(typeText)\"; expected one of \(known)")
        }
        guard allowed.contains(kind) else {
            let expected = allowed.map(\.rawValue).joined(separator: " or ")
            throw object.error("type", "a \(typeText) product cannot be listed in \(section); expected \(expected)")
        }

        var localizations: [Localization] = []
        let localizationsPath = object.path(of: "localizations")
        for (index, element) in try object.optionalArray("localizations").enumerated() {
            let entry = try ObjectReader(
                element, file: file, parent: localizationsPath, index: index, what: "a localization")
            localizations.append(
                Localization(
                    locale: try entry.nonEmptyString("locale"),
                    displayName: try entry.optionalString("displayName") ?? "",
                    description: try entry.optionalString("description") ?? ""))
        }

        var subscription: StoreKitConfiguration.SubscriptionInfo?
        if kind == .autoRenewable, let group {
            let introductory: [StoreKitConfiguration.SubscriptionOffer]
            if object.has("introductoryOffers") {
                introductory = try decodeOffers(object, key: "introductoryOffers")
            } else if let single = object.member("introductoryOffer") {
                introductory = [try decodeOffer(single, path: object.path(of: "introductoryOffer"))]
            } else {
                introductory = []
            }
            subscription = StoreKitConfiguration.SubscriptionInfo(
                groupID: group.id, groupName: group.name,
                groupNumber: try object.optionalInt("groupNumber", minimum: 1) ?? 1,
                period: try object.period("recurringSubscriptionPeriod"),
                introductoryOffers: introductory,
                promotionalOffers: try decodeOffers(object, key: "adHocOffers"),
                codeOffers: try decodeOffers(object, key: "codeOffers"),
                winBackOffers: try decodeOffers(object, key: "winbackOffers"))
        }

        return StoreKitConfiguration.Product(
            id: id,
            referenceName: try object.optionalString("referenceName").map { text throws(CatalogError) in
                try object.limited(
                    text, "referenceName", maximum: Self.maximumReferenceNameLength, what: "the reference name")
            } ?? "", kind: kind,
            price: try object.price("displayPrice", in: baseCurrency),
            familyShareable: try object.optionalBool("familyShareable") ?? false,
            localizations: localizations, subscription: subscription,
            extra: object.extra(excluding: kind == .autoRenewable ? Self.subscriptionKeys : Self.productKeys))
    }

    private func decodeOffers(
        _ object: ObjectReader<JSONElement>, key: String
    ) throws(CatalogError) -> [StoreKitConfiguration.SubscriptionOffer] {
        var offers: [StoreKitConfiguration.SubscriptionOffer] = []
        let offersPath = object.path(of: key)
        for (index, element) in try object.optionalArray(key).enumerated() {
            offers.append(try decodeOffer(element, path: JSONPath.element(index, of: offersPath)))
        }
        return offers
    }

    /// Decodes one subscription offer.
    ///
    /// A `free` offer costs 0 whatever its `displayPrice` says: Xcode leaves the price an
    /// offer had before its mode was set to free, and a free trial charges nothing. That stale
    /// `displayPrice` is still checked (a malformed or negative one is an error, as on any
    /// offer), since it is the file's own text and a broken one means a broken file.
    private func decodeOffer(
        _ value: JSONElement, path: String
    ) throws(CatalogError) -> StoreKitConfiguration.SubscriptionOffer {
        let object = try ObjectReader(value, file: file, path: path, what: "a subscription offer")
        let modeText = try object.string("paymentMode")
        guard let mode = PaymentMode(rawValue: modeText) else {
            let known = PaymentMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw object.error("paymentMode", "unknown payment mode \"\(modeText)\"; expected one of \(known)")
        }
        let price: Decimal
        if object.member("displayPrice") != nil {
            let written = try object.price("displayPrice", in: baseCurrency)
            price = mode == .free ? 0 : written
        } else if mode == .free {
            price = 0
        } else {
            throw object.error("displayPrice", "missing displayPrice for a \(modeText) offer")
        }
        var eligibility: [String] = []
        for (index, element) in try object.optionalArray("eligibility").enumerated() {
            guard let text = element.string else {
                throw CatalogError(
                    file: file, path: JSONPath.element(index, of: object.path(of: "eligibility")),
                    problem: "expected a string, found \(element.typeDescription)")
            }
            eligibility.append(text)
        }
        return StoreKitConfiguration.SubscriptionOffer(
            id: try object.optionalString("offerID"), referenceName: try object.optionalString("referenceName"),
            paymentMode: mode, period: try object.period("subscriptionPeriod"),
            numberOfPeriods: try object.optionalInt("numberOfPeriods", minimum: 1) ?? 1, price: price,
            eligibility: eligibility, extra: object.extra(excluding: Self.offerKeys))
    }

    private mutating func decodeGroup(
        _ value: JSONElement, parent: String, index: Int
    ) throws(CatalogError) -> (SubscriptionGroup, [StoreKitConfiguration.Product]) {
        let object = try ObjectReader(value, file: file, parent: parent, index: index, what: "a subscription group")
        let id = try object.nonEmptyString("id")
        let name = try object.optionalString("name") ?? id
        var localizations: [SubscriptionGroup.Localization] = []
        let localizationsPath = object.path(of: "localizations")
        for (index, element) in try object.optionalArray("localizations").enumerated() {
            let entry = try ObjectReader(
                element, file: file, parent: localizationsPath, index: index, what: "a group localization")
            localizations.append(
                SubscriptionGroup.Localization(
                    locale: try entry.nonEmptyString("locale"),
                    displayName: try entry.optionalString("displayName") ?? "",
                    customAppName: try entry.optionalString("customAppName")))
        }
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

    private func decodeSettings(_ value: JSONElement, path: String) throws(CatalogError) -> CatalogSettings {
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
