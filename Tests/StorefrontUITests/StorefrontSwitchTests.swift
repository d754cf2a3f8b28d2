import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Switching storefront (issue 17): nothing is bought at the old storefront's prices while the
/// switch is under way, and the header and the prices change together.
@Suite struct StorefrontSwitchTests {
    private func switchingToJapan() -> State {
        var state = Fixtures.loaded()
        send(&state, .key(.character("s")), .key(.character("J")), .key(.enter))
        return state
    }

    @Test func enterDuringASwitchOpensNoSheetAtTheOldPrice() {
        var state = switchingToJapan()
        #expect(send(&state, .key(.enter)) == [])
        #expect(state.modal == nil, "no sheet with the old storefront's price")
        #expect(!render(state).lines.joined().contains("Confirm Your In-App Purchase"))
    }

    @Test func theHeaderAndThePricesChangeTogether() {
        var state = switchingToJapan()
        // Until the new products arrive the header still names the storefront the prices are from.
        let during = render(state).lines.joined(separator: "\n")
        #expect(during.contains("USA · en_US"))
        #expect(!during.contains("JPN · ja_JP"))
        send(
            &state,
            .storefrontSwitched(
                .success(
                    StorefrontSwitch(
                        context: Fixtures.context(japanese: true), products: Fixtures.products(japanese: true)))))
        let after = render(state).lines
        #expect(after.contains { $0.contains("JPN · ja_JP") })
        #expect(after.contains { $0.contains("¥160") && $0.contains("コイン100枚") })
        #expect(!after.joined().contains("$0.99"))
        // Now Enter opens the sheet, at the new price.
        send(&state, .key(.enter))
        #expect(render(state).lines.contains { $0.contains("¥160") })
    }

    @Test func aFailedSwitchSaysWhyAndBuyingWorksAgain() {
        var state = switchingToJapan()
        send(&state, .storefrontSwitched(.failure(.systemError("no such storefront"))))
        #expect(state.message?.kind == .error)
        send(&state, .key(.enter))
        #expect(
            state.modal == .confirm
                && state.buySheet.confirmation
                    == BuySheetFeature.Confirmation(productID: "com.storefront.demo.coins.100")
        )
    }
}
