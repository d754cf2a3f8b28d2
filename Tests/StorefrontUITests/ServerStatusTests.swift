import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The menu says whether `storefront serve` runs on the data directory (looked at as it opens),
/// and My Purchases shows each purchase's order ID.
@Suite struct ServerStatusTests {
    @Test func openingTheMenuLooksForTheServerAndTheMenuShowsItsURL() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("m"))) == [.loadServer])
        #expect(state.modal == .menu && state.menu.selected == 0)
        var lines = render(state).lines
        #expect(lines.contains { $0.contains("App Store Server: not running") })
        send(&state, .serverLoaded("http://127.0.0.1:8490"))
        #expect(state.serverURL == "http://127.0.0.1:8490")
        lines = render(state).lines
        #expect(lines.contains { $0.contains("App Store Server: http://127.0.0.1:8490") })
        #expect(!lines.contains { $0.contains("not running") })
        // F2 opens it too, and looks again: the server may have stopped meanwhile.
        send(&state, .key(.escape))
        #expect(send(&state, .key(.function(2))) == [.loadServer])
        send(&state, .serverLoaded(nil))
        #expect(state.serverURL == nil)
        #expect(render(state).lines.contains { $0.contains("App Store Server: not running") })
    }

    @Test func theServerLineIsLocalized() {
        var state = Fixtures.loaded(japanese: true)
        send(&state, .key(.character("m")), .serverLoaded("http://127.0.0.1:8490"))
        #expect(render(state).lines.contains { $0.contains("App Store サーバー：http://127.0.0.1:8490") })
    }

    @Test func myPurchasesShowsOrderIDs() {
        var state = Fixtures.loaded(width: 120, height: 40)
        send(&state, .key(.character("p")))
        send(
            &state,
            .purchasesLoaded(
                .success(
                    PurchasesSnapshot(
                        transactions: [
                            Fixtures.transaction("2000000000000001", "com.storefront.demo.coins.100", .consumable)
                        ],
                        orderIDs: ["2000000000000001": "MK5TTTVWJH"]))))
        let row = render(state).lines.first { $0.contains("2000000000000001") }
        #expect(row?.contains("MK5TTTVWJH") == true, "\(row ?? "no row")")
        #expect(row?.contains("100 Coins") == true)
    }
}
