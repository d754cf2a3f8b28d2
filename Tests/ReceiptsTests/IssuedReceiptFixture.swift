import Crypto
import Foundation
import StoreKitValues

@testable import Receipts

/// A receipt issued by a fresh local chain, for tests of the issuing side.
struct IssuedReceiptFixture {
    static let creationDate = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static let deviceIdentifier: [UInt8] = Array(0..<16)

    let authority: CertificateAuthority
    let receipt: AppReceipt
    let der: [UInt8]

    init(
        bundleID: String = "com.example.storefront", purchases: Int = 3,
        configuration: CertificateAuthority.Configuration = .init(),
        caCreated: Date = IssuedReceiptFixture.creationDate.addingTimeInterval(-86_400)
    ) throws {
        authority = try CertificateAuthority.create(configuration: configuration, now: caCreated).authority
        var receipt = AppReceipt(
            receiptType: .xcode, appItemID: 0, bundleID: bundleID, appVersion: "42", opaqueValue: [],
            sha1Hash: [], creationDate: Self.creationDate, originalAppVersion: "1.0",
            inApp: (0..<purchases).map { Self.purchase($0) })
        try ReceiptSigner.bind(
            &receipt, deviceIdentifier: Self.deviceIdentifier, opaqueValue: [9, 8, 7, 6, 5, 4, 3, 2])
        self.receipt = receipt
        der = try ReceiptSigner(authority: authority).sign(receipt)
    }

    static func purchase(_ index: Int) -> InAppPurchaseReceipt {
        let date = creationDate.addingTimeInterval(Double(-3600 * (index + 1)))
        return InAppPurchaseReceipt(
            quantity: 1, productID: index % 2 == 0 ? "com.example.coins" : "com.example.pro.monthly",
            transactionID: String(1_000_000 + index), originalTransactionID: String(1_000_000 + index - index % 2),
            purchaseDate: date, originalPurchaseDate: date,
            productType: index % 2 == 0 ? .consumable : .autoRenewableSubscription,
            expiresDate: index % 2 == 0 ? nil : date.addingTimeInterval(30 * 86_400),
            webOrderLineItemID: index % 2 == 0 ? nil : Int64(2_000_000_000 + index),
            cancellationDate: index == 2 ? date.addingTimeInterval(60) : nil,
            isInIntroOfferPeriod: false, promotionalOfferIdentifier: index == 1 ? "promo.spring" : nil)
    }

    var rootDER: [UInt8] { authority.root.derRepresentation }
}
