import Catalog
import Foundation
import LocalAppStore
import StoreCore
import TestSupport
import Testing

@testable import StorefrontUI

/// Real catalogs as the storefront shows them: each product localized by the local App Store
/// for a storefront and locale, loaded into a `State` as the app loads it.
enum CatalogScreens {
    /// The catalogs the layout is checked on: the Demo and the conformance catalogs.
    static var catalogs: [URL] {
        let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return [root.appendingPathComponent("Catalogs/Demo.storekit")]
            + [
                "revenuecat-UnitTestsConfiguration", "revenuecat-IntegrationPurchaseTesterConfiguration",
                "revenuecat-PaywallsTesterProducts",
            ].map { fixtures.appendingPathComponent("\($0).storekit") }
    }

    /// The locales checked, each with its storefront.
    static let locales = [("en_US", "USA"), ("ja_JP", "JPN"), ("de_DE", "DEU"), ("ar_SA", "SAU")]

    /// The sizes checked.
    static let sizes = [(80, 24), (120, 40), (200, 60)]

    /// `catalog`'s products as the local App Store localizes them for `storefront` and
    /// `locale`, with the context the storefront would load (estimated prices marked).
    static func load(_ catalog: URL, locale: String, storefront code: String) async throws -> (StoreContext, [Product])
    {
        let configuration = try StoreKitConfiguration.load(contentsOf: catalog)
        let storefront = try #require(Storefront.named(code))
        let directory = try TemporaryDirectory(prefix: "ui-catalog")
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: configuration, stateDirectory: directory.url, storefront: storefront, locale: locale,
                initialLatencyMilliseconds: 0
            ).syncing(false))
        let response = try await store.products(identifiers: Set(configuration.products.map(\.id)))
        let order = Dictionary(configuration.products.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let products = response.products.sorted { (order[$0.id] ?? 0) < (order[$1.id] ?? 0) }
        let estimated = Set(
            configuration.products.filter { configuration.prices?.price(of: $0.id, in: storefront) == nil }.map(\.id))
        let context = StoreContext(
            storefront: code, locale: locale, account: "Local Tester",
            storefronts: Array(Storefront.all.prefix(12)),
            locales: [locale], estimatedPrices: estimated)
        return (context, products)
    }

    /// A state showing `products` at a size.
    static func state(_ context: StoreContext, _ products: [Product], width: Int, height: Int) -> State {
        var state = State(width: width, height: height)
        send(&state, .tick(Fixtures.start))
        send(&state, .contextLoaded(.success(context)))
        send(&state, .catalog(.productsLoaded(.success(products))))
        return state
    }

    /// `text` as the screen holds it: zero-width marks on their own (Arabic's right-to-left
    /// marks around a price) take no cell, so the screen drops them.
    static func visible(_ text: String) -> String {
        String(text.filter { DisplayWidth.of($0) > 0 })
    }

    /// The text of the cells of `rect` on row `y`, continuation cells left out.
    static func text(_ screen: Screen, x: Int, width: Int, y: Int) -> String {
        var text = ""
        for column in x..<x + width where !screen[column, y].isContinuation { text.append(screen[column, y].character) }
        return text
    }

    /// The inside of a box's rows joined, each trimmed: what a wrapped text reads as.
    static func joinedInside(_ screen: Screen, _ rect: Rect) -> String {
        guard rect.width > 2, rect.height > 2 else { return "" }
        return (rect.y + 1..<rect.maxY - 1).map {
            text(screen, x: rect.x + 1, width: rect.width - 2, y: $0).trimmingCharacters(in: .whitespaces)
        }.joined()
    }
}

extension StoreContext {
    /// The context with `locale` changed, for tests.
    func with(locale: String) -> StoreContext {
        var copy = self
        copy.locale = locale
        return copy
    }
}
