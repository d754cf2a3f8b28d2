import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Sends actions in order and returns the work they produced, leaving out the animation's
/// schedule (`.every(_, .tick)`, `.cancel(.animation)`), which `EffectScheduleTests` assert.
@discardableResult
func send(_ state: inout State, _ actions: Action...) -> [Effect] {
    actions.flatMap { reduce(state: &state, action: $0) }.filter { $0.id != .animation && $0 != .cancel(.animation) }
}

private func keys(_ state: inout State, _ text: String) -> [Effect] {
    text.flatMap { reduce(state: &state, action: .key(.character($0))) }
}

@Suite struct ReducerStartupTests {
    @Test func startLoadsEverything() {
        var state = State()
        #expect(
            send(&state, .started) == [
                .observeStore, .loadContext, .loadProducts, .loadPurchases, .loadSettings, .loadServer, .watchStore,
            ])
    }

    @Test func productsAreGroupedAndTheFirstProductIsSelected() {
        let state = Fixtures.loaded()
        #expect(state.catalog.listing.rows.first == .header("Consumables"))
        #expect(state.catalog.selectedProduct?.id == coins)
        let headers = state.catalog.listing.rows.compactMap { if case .header(let h) = $0 { h } else { nil } }
        #expect(headers == ["Consumables", "Non-Consumables", "Premium", "Non-Renewing Subscriptions"])
    }

    @Test func groupingToggleShowsSubscriptionsByType() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("g")))
        let headers = state.catalog.listing.rows.compactMap { if case .header(let h) = $0 { h } else { nil } }
        #expect(headers.contains("Subscriptions"))
        #expect(!headers.contains("Premium"))
    }

    @Test func subscriptionsInAGroupAreOrderedByLevel() {
        let state = Fixtures.loaded()
        let names = state.catalog.listing.rows.compactMap { row -> String? in
            guard case .product(let i) = row else { return nil }
            return state.catalog.products?[i].displayName
        }
        #expect(names.firstIndex(of: "Premium Yearly")! < names.firstIndex(of: "Premium Monthly")!)
    }

    @Test func loadFailureIsAMessageNotACrash() {
        var state = State()
        send(&state, .catalog(.productsLoaded(.failure(.networkError("offline")))))
        #expect(state.catalog.products == [])
        #expect(state.message?.kind == .error)
        #expect(state.eventLog.entries.last?.isError == true)
    }

    @Test func japaneseLocaleSwitchesTheInterfaceLanguage() {
        let state = Fixtures.loaded(japanese: true)
        #expect(state.strings.language == .japanese)
        #expect(state.catalog.listing.rows.first == .header("消耗型アイテム"))
    }
}

@Suite struct ReducerNavigationTests {
    @Test func movingSkipsHeadingsAndStopsAtTheEnds() {
        var state = Fixtures.loaded()
        send(&state, .key(.up))
        #expect(state.catalog.selectedProduct?.id == coins)
        send(&state, .key(.down), .key(.down))
        #expect(state.catalog.selectedProduct?.id == forest)
        send(&state, .key(.end))
        #expect(state.catalog.selectedProduct?.id == "com.storefront.demo.seasonpass")
        send(&state, .key(.down))
        #expect(state.catalog.selectedProduct?.id == "com.storefront.demo.seasonpass")
        send(&state, .key(.home))
        #expect(state.catalog.selectedProduct?.id == coins)
    }

    @Test func scrollingKeepsTheSelectionVisible() {
        var state = Fixtures.loaded(width: 80, height: 16)
        let visible = Layout(state: state).listRows
        send(&state, .key(.end))
        #expect(state.catalog.selectedRow >= state.catalog.scrollTop)
        #expect(state.catalog.selectedRow < state.catalog.scrollTop + visible)
        send(&state, .key(.home))
        #expect(state.catalog.scrollTop == 0)
    }

    @Test func filterNarrowsAsYouTypeAndEscapeClears() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("/")))
        #expect(state.catalog.isFiltering)
        _ = keys(&state, "coin")
        let products = state.catalog.listing.rows.filter { if case .product = $0 { true } else { false } }
        #expect(products.count == 2)
        send(&state, .key(.backspace))
        #expect(state.catalog.filter == "coi")
        send(&state, .key(.escape))
        #expect(!state.catalog.isFiltering)
        #expect(state.catalog.filter.isEmpty)
        #expect(state.catalog.listing.rows.count == Fixtures.loaded().catalog.listing.rows.count)
    }

    @Test func filterWithNoMatchShowsAMessage() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("/")))
        _ = keys(&state, "zzz")
        #expect(state.catalog.listing.rows.isEmpty)
        #expect(state.catalog.selectedProduct == nil)
        #expect(render(state).lines.contains { $0.contains("No products match “zzz”") })
        // Enter on an empty list opens nothing.
        send(&state, .key(.enter), .key(.enter))
        #expect(state.modal == nil)
    }

    @Test func filterMatchesJapaneseNames() {
        var state = Fixtures.loaded(japanese: true)
        send(&state, .key(.character("/")))
        _ = keys(&state, "コイン")
        #expect(state.catalog.listing.rows.filter { if case .product = $0 { true } else { false } }.count == 2)
    }

    @Test func resizeBelowTheMinimumShowsAMessageAndOnlyQuitWorks() {
        var state = Fixtures.loaded()
        send(&state, .resize(width: 50, height: 12))
        #expect(!state.fitsMinimumSize)
        #expect(send(&state, .key(.character("m"))) == [])
        #expect(state.modal == nil)
        #expect(render(state).lines.joined().contains("Terminal too small"))
        #expect(send(&state, .key(.character("q"))) == [.quit])
    }

    @Test func logToggleAndHelp() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("l")))
        #expect(state.eventLog.showsPane)
        send(&state, .key(.character("?")))
        #expect(state.modal == .help && state.help.scroll == 0)
        send(&state, .key(.escape))
        #expect(state.modal == nil)
    }

    @Test func quitFromTheListAndCtrlCFromAnywhere() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("q"))) == [.quit])
        var other = Fixtures.loaded()
        send(&other, .key(.character("m")))
        #expect(send(&other, .key(.control("c"))) == [.quit])
        #expect(other.isQuitting)
    }
}
