import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Nothing cut with room to spare (issue 17): names at 120 columns, product IDs, Arabic
/// prices, the description pane, My Purchases' dates, and help on a small terminal.
@Suite struct TruncationTests {
    static func product(
        _ id: String, _ name: String, price: String, type: ProductType = .nonRenewing,
        description: String = "", subscription: SubscriptionInfo? = nil
    ) -> Product {
        Product(
            id: id, type: type, displayName: name, description: description, price: 19.99, displayPrice: price,
            currencyCode: "SAR", subscription: subscription)
    }

    static func loaded(_ products: [Product], width: Int, height: Int, locale: String = "en_US") -> State {
        var state = State(width: width, height: height)
        send(&state, .tick(Fixtures.start))
        var context = Fixtures.context()
        context.locale = locale
        send(&state, .contextLoaded(.success(context)))
        send(&state, .catalog(.productsLoaded(.success(products))))
        return state
    }

    @Test func aNameIsWholeAt120ColumnsWithRoomToSpare() {
        let products = [
            Self.product("com.storefront.demo.seasonpass.winter", "Winter Season Pass", price: "$7.99"),
            Self.product("a.b", "Winter Season Pass — Alpine Edition", price: "$9.99"),
        ]
        let lines = render(Self.loaded(products, width: 120, height: 40)).lines
        #expect(lines.contains { $0.contains("Winter Season Pass ") && $0.contains("$7.99") })
        #expect(lines.contains { $0.contains("Winter Season Pass — Alpine Edition") && $0.contains("$9.99") })
    }

    @Test func anArabicPriceIsWholeAt80And120Columns() {
        let price = "١٩٫٩٩ ر.س.‏"
        for width in [80, 120] {
            let products = [Self.product("com.example.pass", "تصريح الموسم", price: price)]
            let lines = render(Self.loaded(products, width: width, height: 30, locale: "ar_SA")).lines
            // The right-to-left marks around the price take no cell: the screen holds the rest.
            #expect(
                lines.contains { $0.contains("تصريح الموسم") && $0.contains(CatalogScreens.visible(price)) },
                "at \(width) columns")
        }
    }

    @Test func aLongProductIDIsWrappedNotCut() {
        let id = "com.example.someverylongcompanyname.product.subscription.premium.annual.family"
        let lines = render(Self.loaded([Self.product(id, "Family", price: "$1.99")], width: 80, height: 24)).lines
        let detail = lines.compactMap { line -> String? in
            guard line.hasPrefix("│ "), let end = line.lastIndex(of: "│"), end > line.startIndex else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 2)..<end]).trimmingCharacters(in: .whitespaces)
        }.joined()
        #expect(detail.contains(id))
    }

    @Test func theDescriptionPaneShowsTheTermsAt80x24() {
        let subscription = SubscriptionInfo(
            groupID: "1", groupDisplayName: "Premium", groupLevel: 1,
            period: SubscriptionPeriod(value: 1, unit: .month),
            introductoryOffer: nil, promotionalOffers: [])
        let description = String(
            repeating: "Everything in the app, with new levels every week and no ads at all. ", count: 4)
        let products = [
            Self.product(
                "p.monthly", "Premium", price: "$4.99", type: .autoRenewable, description: description,
                subscription: subscription)
        ]
        let text = render(Self.loaded(products, width: 80, height: 24)).lines.joined(separator: "\n")
        #expect(text.contains("Renews monthly"))
    }

    @Test func myPurchasesDatesAreWhole() {
        let long = "An Extraordinarily Long Product Name For The History Tab"
        var state = Self.loaded([Self.product("p.long", long, price: "$1.00")], width: 80, height: 24)
        send(&state, .key(.character("p")))
        send(
            &state,
            .purchasesLoaded(
                .success(
                    PurchasesSnapshot(transactions: [
                        Fixtures.transaction("1000123", "p.long", .nonRenewing)
                    ]))))
        #expect(render(state).lines.contains { $0.contains("2026-01-01 00:00") })
    }

    @Test func helpOnASmallTerminalScrollsToItsLastLine() {
        var state = Fixtures.loaded(width: 60, height: 20)
        send(&state, .key(.character("?")))
        #expect(!render(state).lines.joined().contains("Show this help"))
        send(&state, .key(.end))
        #expect(render(state).lines.joined().contains("Show this help"))
    }
}
