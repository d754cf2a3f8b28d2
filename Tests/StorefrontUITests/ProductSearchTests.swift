import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The incremental filter (issue 13): every keystroke's matches are exactly what a plain scan of
/// every product's search text finds, whichever way the query got there, and the list shown is
/// the list the matches make.
@Suite struct ProductSearchTests {
    /// Products with ASCII, Japanese, accented and full-width names, and repeated words.
    static let products: [Product] = {
        let names = [
            "100 Coins", "Café Crème", "ｃｏｉｎ Pack", "商品 コイン", "Coin coin coins", "Pro Unlock", "Premium Monthly",
            "Season Pass", "Über Bundle", "pro pro pack", "Cocoa", "Prize Pool",
        ]
        let types: [ProductType] = [.consumable, .nonConsumable, .autoRenewable, .nonRenewing]
        return names.enumerated().map { i, name in
            let type = types[i % types.count]
            let subscription =
                type == .autoRenewable
                ? SubscriptionInfo(
                    groupID: "g", groupDisplayName: i % 8 == 2 ? "Premium" : "Extras", groupLevel: 1,
                    period: SubscriptionPeriod(value: 1, unit: .month), introductoryOffer: nil, promotionalOffers: [])
                : nil
            return Product(
                id: "com.example.item\(i)", type: type, displayName: name, description: "", price: Decimal(i),
                displayPrice: "$\(i).00", currencyCode: "USD", subscription: subscription)
        }
    }()

    /// The products whose text holds every word of `filter`, by a plain scan.
    static func scan(_ search: ProductSearch, _ filter: String) -> [Int] {
        let words = ProductSearch.words(ofFolded: ProductSearch.fold(filter))
        return (0..<search.count).filter { i in
            let text = Array(search.text[search.starts[i]..<search.starts[i + 1]])
            return words.allSatisfy { word in
                (0...max(0, text.count - word.count)).contains {
                    text.count >= word.count && Array(text[$0..<$0 + word.count]) == word
                }
            }
        }
    }

    static func loaded() -> State {
        var state = State(width: 100, height: 30)
        _ = reduce(state: &state, action: .contextLoaded(.success(Fixtures.context())))
        _ = reduce(state: &state, action: .catalog(.productsLoaded(.success(products))))
        _ = reduce(state: &state, action: .key(.character("/")))
        return state
    }

    @Test func foldingASCIIAgreesWithFoundation() {
        for scalar in (0..<0x80).compactMap(Unicode.Scalar.init) {
            let text = "a\(Character(scalar))Z"
            #expect(
                ProductSearch.fold(text)
                    == text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil),
                "U+\(String(scalar.value, radix: 16))")
        }
        #expect(ProductSearch.fold("Café ＣＯＩＮ") == "cafe coin")
    }

    @Test func everyKeystrokeMatchesWhatAPlainScanFinds() {
        var state = Self.loaded()
        // Typing, new words, Backspace back over words, a query starting again: a fixed walk
        // of keys chosen by a seeded generator, so a failure repeats.
        let alphabet = Array("coinpremuxzaéｃ 商コ")
        var seed: UInt64 = 0x5EED
        var checked = 0
        for _ in 0..<600 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let roll = Int(seed >> 33)
            if roll % 5 == 0, !state.catalog.filter.isEmpty {
                _ = reduce(state: &state, action: .key(.backspace))
            } else if roll % 41 == 0 {
                _ = reduce(state: &state, action: .key(.control("u")))
            } else {
                _ = reduce(state: &state, action: .key(.character(alphabet[roll % alphabet.count])))
            }
            guard state.catalog.isFiltering else {
                _ = reduce(state: &state, action: .key(.character("/")))
                continue
            }
            let expected = Self.scan(state.catalog.search, state.catalog.filter)
            let shown = state.catalog.listing.rows.compactMap { row -> Int? in
                if case .product(let i) = row { i } else { nil }
            }
            #expect(shown.sorted() == expected, "filter “\(state.catalog.filter)”")
            let fresh = ProductListing(
                order: state.catalog.sections, matches: state.catalog.filterSteps.last?.matches,
                productCount: Self.products.count)
            #expect(
                state.catalog.listing == fresh,
                "filter “\(state.catalog.filter)”: the list kept is the list the matches make")
            checked += 1
        }
        #expect(checked > 300)
    }

    @Test func aStepRemembersWhereItsLastWordWasFound() {
        let search = ProductSearch(products: Self.products, strings: Strings(.english))
        let first = search.step(query: "c", from: nil)
        #expect(first.matches == Self.scan(search, "c"))
        let co = search.step(query: "co", from: first)
        let coi = search.step(query: "coi", from: co)
        let coin = search.step(query: "coin", from: coi)
        #expect(coin.matches == Self.scan(search, "coin"))
        for (product, hit) in zip(coin.matches, coin.hits) {
            let start = search.starts[product]
            let text = Array(search.text[start..<search.starts[product + 1]])
            #expect(
                Array(text[Int(hit)..<Int(hit) + 4]) == Array("coin".utf8), "the first “coin” of product \(product)")
            #expect(
                !(0..<Int(hit)).contains { Array(text[$0..<min(text.count, $0 + 4)]) == Array("coin".utf8) },
                "no earlier one")
        }
        // A second word narrows the first word's matches and checks only itself.
        let two = search.step(query: "coin pack", from: search.step(query: "coin ", from: coin))
        #expect(two.matches == Self.scan(search, "coin pack"))
        #expect(two.matches == [2], "ｃｏｉｎ Pack")
        // A byte no product holds: nothing, from the index alone.
        #expect(search.step(query: "q", from: nil).matches.isEmpty)
    }

    @Test func aKeyThatDropsNothingKeepsTheList() {
        var state = Self.loaded()
        for c in "co" { _ = reduce(state: &state, action: .key(.character(c))) }
        let every = ProductListing(order: state.catalog.sections, matches: nil, productCount: Self.products.count)
        #expect(state.catalog.listing == every, "every ID holds “co”")
        _ = reduce(state: &state, action: .key(.character("m")))
        #expect(state.catalog.listing == every)
        _ = reduce(state: &state, action: .key(.character(".")))
        #expect(state.catalog.listing == every)
        _ = reduce(state: &state, action: .key(.character("e")))
        #expect(state.catalog.listing == every)
        for c in " coin" { _ = reduce(state: &state, action: .key(.character(c))) }
        #expect(state.catalog.listing.productCount == Self.scan(state.catalog.search, "com.e coin").count)
        #expect(state.catalog.listing.productCount < Self.products.count)
    }
}
