import Foundation
import StoreCore
import Testing
@testable import StorefrontUI

/// StoreKit 2's pieces in the storefront, as data: the app transaction (`i`), the storefront's
/// updates.
@Suite struct StoreKit2ReducerTests {
    static let app = AppTransaction(
        appTransactionID: "704289572311111111", bundleID: "com.storefront.demo", appVersion: "2.0", originalAppVersion: "1.0",
        originalPurchaseDate: Date(timeIntervalSince1970: 1_767_225_600), rawEnvironment: "Sandbox",
        signedDate: Date(timeIntervalSince1970: 1_767_312_000))

    @Test func iLoadsTheAppTransactionAndTheAnswerIsShownAndLogged() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("i"))) == [.loadAppTransaction])
        send(&state, .appTransactionLoaded(.success(.verified(Self.app))))
        let text = "App transaction 704289572311111111: original version 1.0, since \(Format.minute(Self.app.originalPurchaseDate)) (verified)"
        #expect(state.message?.text == text)
        #expect(state.message?.kind == .success)
        #expect(state.log.last?.text == text)
        #expect(state.log.last?.isError == false)
    }

    @Test func anUnverifiedAppTransactionIsAnErrorThatSaysWhy() {
        var state = Fixtures.loaded()
        send(&state, .appTransactionLoaded(.success(.unverified(Self.app, .invalidCertificateChain("untrusted root")))))
        #expect(state.message?.kind == .error)
        #expect(state.message?.text.hasSuffix("(unverified: invalid certificate chain: untrusted root)") == true)
        #expect(state.log.last?.isError == true)
        send(&state, .appTransactionLoaded(.failure(.systemError("no chain"))))
        #expect(state.message?.text == "Error: The store failed: no chain")
    }

    @Test func aStorefrontUpdateIsLogged() {
        var state = Fixtures.loaded()
        let japan = Storefront(code: "JPN", name: "Japan", currencyCode: "JPY", locale: "ja_JP", storefrontID: "143462")
        #expect(send(&state, .storeEvent(.storefrontChanged(japan))) == [])
        #expect(state.log.last?.text == "Storefront is now JPN (storefront ID 143462)")
    }
}
