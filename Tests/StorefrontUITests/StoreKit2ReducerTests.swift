import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// StoreKit 2's pieces in the storefront, as data: the app transaction (`i`), the storefront's
/// updates.
@Suite struct StoreKit2ReducerTests {
    static let app = AppTransaction(
        appTransactionID: "704289572311111111", bundleID: "com.storefront.demo", appVersion: "2.0",
        originalAppVersion: "1.0",
        originalPurchaseDate: Date(timeIntervalSince1970: 1_767_225_600), rawEnvironment: "Sandbox",
        signedDate: Date(timeIntervalSince1970: 1_767_312_000))

    @Test func iLoadsTheAppTransactionAndTheAnswerIsShownAndLogged() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("i"))) == [.loadAppTransaction])
        send(&state, .appTransactionLoaded(.success(.verified(Self.app))))
        let text =
            "App transaction 704289572311111111: original version 1.0, since \(Format.minute(Self.app.originalPurchaseDate)) (verified)"
        #expect(state.message?.text == text)
        #expect(state.message?.kind == .success)
        #expect(state.eventLog.entries.last?.text == text)
        #expect(state.eventLog.entries.last?.isError == false)
    }

    @Test func anUnverifiedAppTransactionIsAnErrorThatSaysWhy() {
        var state = Fixtures.loaded()
        send(&state, .appTransactionLoaded(.success(.unverified(Self.app, .invalidCertificateChain("untrusted root")))))
        #expect(state.message?.kind == .error)
        #expect(state.message?.text.hasSuffix("(unverified: invalid certificate chain: untrusted root)") == true)
        #expect(state.eventLog.entries.last?.isError == true)
        send(&state, .appTransactionLoaded(.failure(.systemError("no chain"))))
        #expect(state.message?.text == "Error: The store failed: no chain")
    }

    @Test func aStorefrontUpdateIsLogged() {
        var state = Fixtures.loaded()
        let japan = Storefront(code: "JPN", name: "Japan", currencyCode: "JPY", locale: "ja_JP", storefrontID: "143462")
        #expect(send(&state, .storeEvent(.storefrontChanged(japan))) == [])
        #expect(state.eventLog.entries.last?.text == "Storefront is now JPN (storefront ID 143462)")
    }

    /// Moves the selection to the first product that `matches`.
    static func select(_ state: inout State, _ matches: (Product) -> Bool) -> Bool {
        for row in 0..<200 {
            state.catalog.selectedRow = row
            if let product = state.catalog.selectedProduct, matches(product) { return true }
        }
        return false
    }

    @Test func cRedeemsAnOfferCodeForTheSelectedProductThroughThePurchaseSheet() {
        var state = Fixtures.loaded()
        let monthly = "com.storefront.demo.premium.monthly"
        #expect(Self.select(&state) { $0.id == monthly })
        #expect(send(&state, .key(.character("c"))) == [.redeemOfferCode(productID: monthly)])
        #expect(state.modal == .purchase && state.buySheet.watching == monthly)
        #expect(state.buySheet.flows[monthly]?.phase == .contacting)
        // A consumable's code is redeemed the same way (the store says if it has no code offer).
        var other = Fixtures.loaded()
        #expect(Self.select(&other) { $0.type == .consumable })
        let consumable = other.catalog.selectedProduct?.id ?? ""
        #expect(send(&other, .key(.character("c"))) == [.redeemOfferCode(productID: consumable)])
        #expect(other.modal == .purchase && other.buySheet.watching == consumable)
    }

    @Test func theTransactionManagerRequestsAndDecidesRefunds() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("t")))
        let pro = "com.storefront.demo.pro"
        let bought = Transaction(
            transactionID: "100", productID: pro, productType: .nonConsumable, payment: Payment(productID: pro),
            state: .purchased, purchaseDate: Fixtures.start)
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [bought]))))
        let commands: [(Character, TransactionCommand)] = [
            ("R", .requestRefund), ("A", .decideRefund(approve: true)), ("D", .decideRefund(approve: false)),
        ]
        for (key, command) in commands {
            #expect(send(&state, .key(.character(key))) == [.transactionCommand(command, transactionID: "100")])
        }
        #expect(
            send(&state, .transactionManager(.commandFinished(.requestRefund, .success("100")))) == [
                .loadPurchases
            ])
        #expect(state.message?.text == "Refund requested for transaction 100")
        send(&state, .transactionManager(.commandFinished(.decideRefund(approve: false), .success("100"))))
        #expect(state.message?.text == "Declined the refund request for transaction 100")
    }

    @Test func theAppHearsARefundDecision() {
        var state = Fixtures.loaded()
        let decision = RefundDecision(
            requestID: "r", transactionID: "100", productID: "com.storefront.demo.pro", isApproved: false,
            date: Fixtures.start)
        #expect(send(&state, .storeEvent(.refundRequestDecided(decision))) == [.loadPurchases])
        #expect(state.message?.kind == .error && state.message?.text.hasPrefix("Refund of ") == true)
        #expect(state.message?.text.hasSuffix(" declined") == true)
        var approved = decision
        approved.isApproved = true
        send(&state, .storeEvent(.refundRequestDecided(approved)))
        #expect(state.message?.kind == .success && state.eventLog.entries.last?.text.hasSuffix(" approved") == true)
    }
}
