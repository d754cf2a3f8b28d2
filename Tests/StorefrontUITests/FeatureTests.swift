import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

private func names(_ state: State) -> [String] {
    state.catalog.listing.rows.compactMap { row in
        guard case .product(let i) = row else { return nil }
        return state.catalog.products?[i].displayName
    }
}

/// What a good terminal tool does (issue 17, item 3): sort, group, a filter that finds type
/// words and shows its matches, the sheet's quantity and offer, prices in every storefront,
/// the receipt and transaction viewer, the status bar, help that lists every key.
@Suite struct FeatureTests {
    @Test func sortCyclesThroughNamePriceAndType() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("g")), .key(.character("g")))
        #expect(state.catalog.grouping == .none)
        #expect(!state.catalog.listing.rows.contains { if case .header = $0 { true } else { false } })
        send(&state, .key(.character("S")))
        #expect(state.catalog.sort == .name)
        #expect(names(state) == names(state).sorted { $0.lowercased() < $1.lowercased() })
        send(&state, .key(.character("S")))
        #expect(state.catalog.sort == .price)
        let prices = state.catalog.listing.rows.compactMap { row -> Decimal? in
            guard case .product(let i) = row else { return nil }
            return state.catalog.products?[i].price
        }
        #expect(prices == prices.sorted())
        send(&state, .key(.character("S")))
        #expect(state.catalog.sort == .type)
        #expect(render(state).lines.joined().contains("Sorted by type"))
    }

    @Test func theFilterFindsTypeWordsAndHighlightsWhatItMatched() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("/")))
        for c in "subscription" { send(&state, .key(.character(c))) }
        let found = Set(names(state))
        #expect(found == ["Premium Monthly", "Premium Yearly", "Season Pass"])
        send(&state, .key(.control("u")))
        for c in "COIN" { send(&state, .key(.character(c))) }
        let screen = render(state)
        guard let y = (0..<screen.height).first(where: { screen.line($0).contains("100 Coins") }),
            let x = screen.line(y).range(of: "Coins").map({
                screen.line(y).distance(from: screen.line(y).startIndex, to: $0.lowerBound)
            })
        else {
            Issue.record("no 100 Coins row")
            return
        }
        #expect(screen[x, y].style.attributes.contains(.underline), "the match is highlighted")
        #expect(!screen[x - 2, y].style.attributes.contains(.underline), "only the match")
    }

    @Test func theFilterNarrowsTheLastMatchesAndBackspaceGoesBackAStep() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("/")))
        for c in "coin" { send(&state, .key(.character(c))) }
        #expect(state.catalog.filterSteps.map(\.query) == ["c", "co", "coi", "coin"])
        #expect(state.catalog.filterSteps.last?.matches.count == 2)
        send(&state, .key(.backspace))
        #expect(state.catalog.filterSteps.map(\.query) == ["c", "co", "coi"])
        #expect(state.catalog.listing.productCount == 2)
    }

    @Test func theSheetChoosesAQuantityForAConsumable() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter), .key(.character("+")), .key(.character("+")), .key(.character("-")))
        #expect(
            state.modal == .confirm
                && state.buySheet.confirmation == BuySheetFeature.Confirmation(productID: coins, quantity: 2, offer: 0))
        #expect(render(state).lines.joined().contains("Total $1.98"))
        #expect(send(&state, .key(.enter)) == [.purchase(productID: coins, quantity: 2, offerID: nil)])
    }

    /// A state showing one monthly subscription, "Premium Monthly" at $4.99, with these offers.
    private func premiumMonthly(
        promotional: [SubscriptionOffer] = [], winBack: [SubscriptionOffer] = [], width: Int = 80, height: Int = 24
    )
        -> (State, Product)
    {
        var state = State(width: width, height: height)
        send(&state, .tick(Fixtures.start), .contextLoaded(.success(Fixtures.context())))
        let month = SubscriptionPeriod(value: 1, unit: .month)
        let info = SubscriptionInfo(
            groupID: "g", groupDisplayName: "Premium", groupLevel: 1, period: month, introductoryOffer: nil,
            promotionalOffers: promotional, winBackOffers: winBack)
        let product = Product(
            id: monthly, type: .autoRenewable, displayName: "Premium Monthly", description: "",
            price: 4.99, displayPrice: "$4.99", currencyCode: "USD", subscription: info)
        send(&state, .catalog(.productsLoaded(.success([product]))))
        return (state, product)
    }

    @Test func theSheetChoosesAPromotionalOffer() {
        let promo = SubscriptionOffer(
            id: "winback", kind: .promotional, paymentMode: .payAsYouGo,
            period: SubscriptionPeriod(value: 1, unit: .month), periodCount: 3, price: 1.99, displayPrice: "$1.99")
        var (state, _) = premiumMonthly(promotional: [promo])
        send(&state, .key(.enter), .key(.tab))
        #expect(
            state.modal == .confirm
                && state.buySheet.confirmation
                    == BuySheetFeature.Confirmation(productID: monthly, quantity: 1, offer: 1)
        )
        let sheet = render(state).lines
        #expect(sheet.contains { $0.contains("Promotional offer winback: $1.99/month for 3 months, then") }, "\(sheet)")
        #expect(send(&state, .key(.enter)) == [.purchase(productID: monthly, quantity: 1, offerID: "winback")])
    }

    @Test func theDetailsListAWinBackOffer() {
        let winBack = SubscriptionOffer(
            id: "comeback", kind: .winBack, paymentMode: .payUpFront,
            period: SubscriptionPeriod(value: 1, unit: .month), periodCount: 1, price: 0.99, displayPrice: "$0.99")
        let (state, product) = premiumMonthly(winBack: [winBack], width: 100, height: 30)
        let facts = ProductFacts.lines(product, state, width: 100).map(\.0)
        #expect(facts.contains { $0.contains("Win-back offer comeback: ") && $0.contains("$0.99") }, "\(facts)")
    }

    @Test func detailsShowThePriceInEveryStorefront() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("d"))) == [.loadPriceComparison(productID: coins)])
        send(
            &state,
            .details(
                .priceComparisonLoaded(
                    productID: coins,
                    [
                        StorefrontPrice(
                            storefront: Storefront(code: "USA", name: "United States", currencyCode: "USD", locale: ""),
                            displayPrice: "$0.99", isEstimated: false),
                        StorefrontPrice(
                            storefront: Storefront(code: "JPN", name: "Japan", currencyCode: "JPY", locale: ""),
                            displayPrice: "¥160", isEstimated: false),
                        StorefrontPrice(
                            storefront: Storefront(code: "DEU", name: "Germany", currencyCode: "EUR", locale: ""),
                            displayPrice: "0,99 €", isEstimated: true),
                    ])))
        let lines = render(state).lines
        #expect(lines.contains { $0.contains("JPN") && $0.contains("Japan") && $0.contains("¥160") })
        #expect(lines.contains { $0.contains("DEU") && $0.contains("≈0,99 €") })
        #expect(lines.contains { $0.contains("●") && $0.contains("USA") })
    }

    @Test func theReceiptAndTransactionViewersShowTheDecodedDocumentAndScroll() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("v"))) == [.loadReceipt])
        let lines =
            [TextDocument.Line("App Receipt", isHeading: true)]
            + (0..<80).map { TextDocument.Line("field \($0): value") }
        send(
            &state,
            .receipt(
                .loaded(.success(TextDocument(title: "App Receipt", subject: "com.storefront.demo", lines: lines)))))
        #expect(render(state).lines.contains { $0.contains("field 0: value") })
        send(&state, .key(.end))
        #expect(render(state).lines.contains { $0.contains("field 79: value") })
        send(&state, .key(.escape))
        #expect(state.modal == nil)
        // From the Transaction Manager, Enter opens the selected transaction; Esc goes back.
        send(&state, .key(.character("t")))
        send(
            &state,
            .purchasesLoaded(
                .success(PurchasesSnapshot(transactions: [Fixtures.transaction("42", coins, .consumable)]))))
        #expect(send(&state, .key(.enter)) == [.loadTransaction(transactionID: "42")])
        send(&state, .key(.escape))
        #expect(state.modal == .transactions && state.transactionManager.selected == 0)
    }

    @Test func theStatusBarCountsApprovalsAndDownloads() {
        var state = Fixtures.loaded(width: 120, height: 40)
        var deferred = Fixtures.transaction("7", coins, .consumable, state: .deferred)
        deferred.error = nil
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(pending: [deferred]))))
        send(
            &state,
            .storeEvent(
                .downloadUpdated(
                    Download(
                        id: "9", transactionID: "9", productID: "com.storefront.demo.levels.forest",
                        contentVersion: "1", state: .active,
                        bytesWritten: 1, totalBytes: 10))))
        let header = render(state).line(0)
        #expect(header.contains("⏳ 1 waiting for approval"))
        #expect(header.contains("⇩ 1 downloading"))
    }

    @Test func helpListsEveryKey() {
        let keys = HelpView.rows(Strings(.english)).map(\.0).joined(separator: " ")
        for item in MenuItem.allCases { #expect(keys.contains(String(item.key)), "\(item)") }
        for key in [
            "/", "d", "S", "g", "l", "x", "space", "Enter", "Esc", "PgUp", "Home", "Tab", "^C", "a d i", "f", "n c b",
            "c", "y n",
        ] {
            #expect(keys.contains(key), "help lacks \(key)")
        }
    }
}
