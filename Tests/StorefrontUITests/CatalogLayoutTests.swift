import Catalog
import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Every product of the Demo and of every conformance catalog, in en_US, ja_JP, de_DE and
/// ar_SA, at 80×24, 120×40 and 200×60 (issue 17, item 2): a name, ID or price is never cut
/// while its row has free cells, and no line is wider than the terminal.
@Suite struct CatalogLayoutTests {
    static var cases: [(String, String, String)] {
        CatalogScreens.catalogs.flatMap { catalog in CatalogScreens.locales.map { (catalog.path, $0.0, $0.1) } }
    }

    @Test(arguments: cases)
    func nothingIsCutWithRoomToSpare(catalog: String, locale: String, storefront: String) async throws {
        let (context, products) = try await CatalogScreens.load(
            URL(fileURLWithPath: catalog), locale: locale, storefront: storefront)
        #expect(!products.isEmpty)
        let file = URL(fileURLWithPath: catalog).lastPathComponent
        for (width, height) in CatalogScreens.sizes {
            var state = CatalogScreens.state(context, products, width: width, height: height)
            var seen: Set<String> = []
            while let product = state.catalog.selectedProduct, seen.insert(product.id).inserted {
                let screen = render(state)
                let place = "\(file) \(locale) \(width)×\(height) \(product.id)"
                for line in screen.lines {
                    #expect(DisplayWidth.of(line) == width, "\(place): a line is \(DisplayWidth.of(line)) wide")
                }
                checkRow(screen, state, product, place)
                checkDetail(screen, state, product, place)
                if width == 80 { checkWindows(state, product, place) }
                send(&state, .key(.down))
            }
            #expect(seen.count == products.count, "\(file) \(locale) \(width)×\(height): every product was listed")
        }
    }

    /// The selected row: the price whole; the name whole, or cut only with no free cell left.
    private func checkRow(_ screen: Screen, _ state: State, _ product: Product, _ place: String) {
        let layout = Layout(state: state)
        let y = layout.list.y + 1 + state.catalog.selectedRow - state.catalog.scrollTop
        let row = CatalogScreens.text(screen, x: layout.list.x + 1, width: layout.list.width - 2, y: y)
        let index = state.catalog.metrics.position[product.id] ?? 0
        let price = CatalogScreens.visible(state.catalog.metrics.prices[index])
        #expect(row.contains(price), "\(place): price \(price) cut in “\(row)”")
        let name = CatalogScreens.visible(State.shownName(product))
        if !row.contains(name) {
            // Cut: then the row holds only the name and the price, with no free cell left.
            let table = String(row.dropFirst(ProductListView.marker).dropLast())
            #expect(!table.contains("   "), "\(place): name cut with free cells in “\(row)”")
            #expect(!table.hasSuffix(" "), "\(place): name cut with free cells at the end of “\(row)”")
            #expect(table.contains("…"), "\(place): name cut without an ellipsis in “\(row)”")
        }
    }

    /// The detail pane: the identifier whole (wrapped), or the pane says where the rest is.
    private func checkDetail(_ screen: Screen, _ state: State, _ product: Product, _ place: String) {
        let detail = Layout(state: state).detail
        guard !detail.isEmpty else { return }
        let inside = CatalogScreens.joinedInside(screen, detail)
        #expect(
            inside.contains(CatalogScreens.visible(product.id)) || inside.contains("↓"),
            "\(place): the ID is neither in the pane nor pointed to: \(inside)")
    }

    /// The details window and the purchase sheet: identifier, name and price whole.
    private func checkWindows(_ state: State, _ product: Product, _ place: String) {
        var details = state
        send(&details, .key(.character("d")))
        let page = render(details)
        let pageText = page.lines.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " │")) }.joined()
        #expect(pageText.contains(product.id), "\(place): the details window cuts the ID")
        var sheet = state
        send(&sheet, .key(.enter))
        guard case .confirm = sheet.modal else { return }
        let sheetText = render(sheet).lines.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " │")) }.joined(
            separator: " ")
        let index = state.catalog.metrics.position[product.id] ?? 0
        var price = CatalogScreens.visible(state.catalog.metrics.prices[index])
        // A product sold by billing plans: the sheet prices the plan the purchase takes (up front first).
        if let plan = BuySheetFeature.plan(product, sheet.buySheet.confirmation) {
            price = CatalogScreens.visible(SubscriptionTerms.planPrice(plan, state.strings))
        }
        #expect(sheetText.contains(price), "\(place): the sheet cuts the price \(price)")
        let words = CatalogScreens.visible(State.shownName(product)).split(separator: " ").joined(separator: " ")
        #expect(
            sheetText.replacingOccurrences(of: "  ", with: " ").contains(words), "\(place): the sheet cuts the name")
    }
}

/// Whole screens of real catalogs, as golden files.
@Suite struct CatalogGoldenTests {
    @Test(arguments: [
        ("Demo", "de_DE", "DEU", 120, 40), ("Demo", "ja_JP", "JPN", 200, 60),
        ("revenuecat-UnitTestsConfiguration", "ar_SA", "SAU", 80, 24),
        ("revenuecat-PaywallsTesterProducts", "en_US", "USA", 80, 24),
    ])
    func catalogScreen(name: String, locale: String, storefront: String, width: Int, height: Int) async throws {
        let url = try #require(CatalogScreens.catalogs.first { $0.deletingPathExtension().lastPathComponent == name })
        let (context, products) = try await CatalogScreens.load(url, locale: locale, storefront: storefront)
        var state = CatalogScreens.state(context, products, width: width, height: height)
        send(&state, .key(.down), .key(.down))
        try GoldenScreen.check(render(state), named: "catalog-\(name)-\(width)x\(height)-\(locale)")
    }
}
