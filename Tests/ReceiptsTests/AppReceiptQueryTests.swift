import Foundation
import Receipts
import StoreKitValues
import Testing

/// RMAppReceipt's questions of a receipt: does it hold a purchase of a product, and an
/// auto-renewable subscription of a product active at a date.
struct AppReceiptQueryTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static let receipt = AppReceipt(
        bundleID: "com.example", appVersion: "1", opaqueValue: [], sha1Hash: [],
        inApp: [
            InAppPurchaseReceipt(productID: "pro", transactionID: "1", purchaseDate: t0, productType: .nonConsumable),
            InAppPurchaseReceipt(
                productID: "monthly", transactionID: "2", purchaseDate: t0, productType: .autoRenewableSubscription,
                expiresDate: t0.addingTimeInterval(30 * 86_400)),
            InAppPurchaseReceipt(
                productID: "monthly", transactionID: "3", purchaseDate: t0.addingTimeInterval(30 * 86_400),
                productType: .autoRenewableSubscription, expiresDate: t0.addingTimeInterval(60 * 86_400)),
            InAppPurchaseReceipt(
                productID: "refunded", transactionID: "4", purchaseDate: t0, productType: .autoRenewableSubscription,
                expiresDate: t0.addingTimeInterval(30 * 86_400), cancellationDate: t0.addingTimeInterval(86_400)),
        ])

    @Test func itHoldsAPurchaseOfAProduct() {
        #expect(Self.receipt.containsInAppPurchase(ofProductID: "pro"))
        #expect(Self.receipt.containsInAppPurchase(ofProductID: "refunded"), "refunded purchases are still listed")
        #expect(!Self.receipt.containsInAppPurchase(ofProductID: "other"))
        #expect(Self.receipt.inAppPurchases(ofProductID: "monthly").map(\.transactionID) == ["2", "3"])
    }

    @Test func aSubscriptionIsActiveFromItsPurchaseUntilItsExpiry() {
        let r = Self.receipt
        #expect(!r.containsActiveAutoRenewableSubscription(ofProductID: "monthly", at: Self.t0.addingTimeInterval(-1)))
        #expect(r.containsActiveAutoRenewableSubscription(ofProductID: "monthly", at: Self.t0))
        #expect(
            r.containsActiveAutoRenewableSubscription(
                ofProductID: "monthly", at: Self.t0.addingTimeInterval(45 * 86_400)))
        #expect(
            !r.containsActiveAutoRenewableSubscription(
                ofProductID: "monthly", at: Self.t0.addingTimeInterval(60 * 86_400)),
            "the period ends at its expiry")
        #expect(
            !r.containsActiveAutoRenewableSubscription(
                ofProductID: "refunded", at: Self.t0.addingTimeInterval(2 * 86_400)))
        #expect(
            !r.containsActiveAutoRenewableSubscription(ofProductID: "pro", at: Self.t0), "no expiry: no subscription")
    }
}
