import Foundation
import TestSupport
import Testing

/// StoreKit 2's keys in a real terminal (tmux runs the built storefront): the Transaction
/// Manager's R asks for a refund as the customer would and A approves it; c redeems an offer
/// code for the selected subscription. The CLI, another process on the same data directory,
/// says what the store and the app then hold.
@Suite(.waitsOnProcesses) struct TUIStoreKit2Tests {

    func refundRequests(_ storefront: StorefrontCLI) throws -> [[String: Any]] {
        try storefront.array(["store", "refund-requests"])
    }

    @Test func theCustomersRefundRequestIsAskedWithRAndApprovedWithA() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let bought = try storefront.buy(DemoCatalog.removeAds)

        let (tmux, _) = try await TUIEndToEndTests.openTransactions(storefront, showing: "the purchase's row") {
            $0.contains(bought)
        }
        defer { tmux.close() }

        try await tmux.press("R", until: "Refund requested for transaction \(bought)")
        let pending = try refundRequests(storefront)
        #expect(pending.count == 1 && pending.first?["status"] as? String == "pending", "\(pending)")
        #expect(pending.first?["transactionID"] as? String == bought, "\(pending)")

        // A: approved; the app hears the refund at once, so its own message may replace the
        // approval's before the pane is read: the purchase's row marked refunded stays.
        try tmux.keys("A")
        try await tmux.waitFor("the purchase's row marked refunded") { screen in
            screen.split(separator: "\n").contains { $0.contains(bought) && $0.contains("Refunded") }
        }
        #expect(try refundRequests(storefront).first?["status"] as? String == "approved")
        let latest = try storefront.object(["latest", DemoCatalog.removeAds])
        #expect(latest["state"] as? String == "refunded", "\(latest)")

        try await tmux.quit(closing: 1)
    }

    @Test func cRedeemsAnOfferCodeForTheSelectedSubscription() async throws {
        let (redeemed, codes) = try await redeemWithC("Pro (Monthly)", DemoCatalog.pro)
        #expect(redeemed["offerID"] as? String == DemoCatalog.codeOfferReferenceName, "\(redeemed)")
        #expect(redeemed["price"] as? String == "0", "\(redeemed)")
        #expect(codes.contains { $0["transactionID"] as? String == redeemed["transactionID"] as? String }, "\(codes)")
    }

    @Test func cRedeemsAnOfferCodeForTheSelectedNonConsumable() async throws {
        let (redeemed, codes) = try await redeemWithC("Remove Ads", DemoCatalog.removeAds)
        #expect(redeemed["offerID"] as? String == "Code: Remove ads half price", "\(redeemed)")
        #expect(redeemed["price"] as? String == "1.99", "\(redeemed)")
        #expect(
            codes.map { $0["offerID"] as? String } == [DemoCatalog.removeAdsCodeOffer]
                && codes.first?["transactionID"] as? String == redeemed["transactionID"] as? String, "\(codes)")
    }

    /// Finds `title` in the catalog, opens its details and presses c: the code transaction
    /// `latest` then reports for `productID`, and the store's codes.
    func redeemWithC(
        _ title: String, _ productID: String
    ) async throws -> (redeemed: [String: Any], codes: [[String: Any]]) {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront, width: 110, height: 32)
        defer { tmux.close() }

        try tmux.keys("/")
        try await tmux.press(title, literal: true, until: "(1/19)")
        try tmux.keys("Enter")
        try await tmux.press("c", until: "Purchased")
        let redeemed = try storefront.object(["latest", productID])
        #expect(redeemed["offerType"] as? String == "code", "\(redeemed)")
        let codes = try storefront.array(["store", "codes"])
        try await tmux.quit(closing: 2)
        return (redeemed, codes)
    }
}
