import Foundation
import StoreKitValues
import Testing

@testable import Receipts

/// Each real receipt decodes to exactly the values in expected.json.
@Suite struct ConformanceDecodeTests {
    @Test(arguments: ConformanceFixtures.receiptNames)
    func decodesToExpectedValues(name: String) throws {
        let expected = try #require(try ConformanceFixtures.expected()[name])
        let receipt = try ReceiptDecoder().decode(ConformanceFixtures.bytes(name))

        #expect(receipt.rawReceiptType == expected["receiptType"] as? String)
        #expect(receipt.appItemID == (expected["appItemID"] as? Int).map(Int64.init))
        #expect(receipt.bundleID == expected["bundleID"] as? String)
        #expect(receipt.appVersion == expected["appVersion"] as? String)
        #expect(receipt.opaqueValue == ConformanceFixtures.hex(try #require(expected["opaqueHex"] as? String)))
        #expect(receipt.sha1Hash == ConformanceFixtures.hex(try #require(expected["sha1Hex"] as? String)))
        #expect(receipt.creationDate == ConformanceFixtures.date(expected["creationDate"]))
        #expect(receipt.expirationDate == ConformanceFixtures.date(expected["expirationDate"]))
        #expect(receipt.originalAppVersion == expected["originalAppVersion"] as? String)

        let expectedInApp = try #require(expected["inApp"] as? [[String: Any]])
        try #require(receipt.inApp.count == expectedInApp.count)
        for (purchase, want) in zip(receipt.inApp, expectedInApp) {
            #expect(purchase.quantity == (want["quantity"] as? Int).map(Int64.init))
            #expect(purchase.productID == want["productID"] as? String)
            #expect(purchase.transactionID == want["transactionID"] as? String)
            #expect(purchase.originalTransactionID == want["originalTransactionID"] as? String)
            #expect(purchase.purchaseDate == ConformanceFixtures.date(want["purchaseDate"]))
            #expect(purchase.originalPurchaseDate == ConformanceFixtures.date(want["originalPurchaseDate"]))
            #expect(purchase.rawProductType == (want["productType"] as? Int).map(Int64.init))
            #expect(purchase.expiresDate == ConformanceFixtures.date(want["expiresDate"]))
            #expect(purchase.webOrderLineItemID == (want["webOrderLineItemID"] as? Int).map(Int64.init))
            #expect(purchase.cancellationDate == ConformanceFixtures.date(want["cancellationDate"]))
            #expect(purchase.isInIntroOfferPeriod == (want["isInIntroOfferPeriod"] as? Int).map { $0 != 0 })
        }
    }

    @Test func conformanceSetIsPresent() {
        #expect(ConformanceFixtures.receiptNames.count == 3)
    }

    @Test func xcodeReceiptUsesIndefiniteLengthsAndConstructedOctetStrings() throws {
        let der = try ReceiptDecoder.containerBytes(ConformanceFixtures.bytes("receipt-xcode-with-purchases.b64"))
        let root = try BERReader().readSingle(der)
        #expect(root.isIndefiniteLength)
        let content = try root.child(1, "").child(0, "").child(2, "").child(1, "").child(0, "")
        #expect(content.tag.isConstructed)
        #expect(content.tag.sameType(as: .octetString))
    }

    @Test func unknownAttributesAreKept() throws {
        let receipt = try ReceiptDecoder().decode(ConformanceFixtures.bytes("receipt-production.b64"))
        // Production receipts carry undocumented attributes (e.g. 8, 6, 7); they survive decoding.
        #expect(receipt.unknownAttributes.contains { $0.type == 8 })
        #expect(receipt.inApp.allSatisfy { !$0.unknownAttributes.isEmpty })
        #expect(receipt.inApp[2].promotionalOfferIdentifier == "org.getpure.pure.Month.Offer.3M.PayToGo")
        #expect(receipt.inApp[0].promotionalOfferIdentifier == nil)
        #expect(receipt.receiptType == .production)
        #expect(receipt.inApp[0].productType == .autoRenewableSubscription)
    }
}
