import Catalog
import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// Offer codes on every product type, as the 2026 App Store has them: the Demo catalog's
/// consumable (550 coins free), non-consumable (Remove Ads at 1.99) and non-renewing
/// subscription (the Winter Season Pass at 3.99) each have a code offer. A code is issued by any
/// of the offer's names, redeemed through the engine once, and its transaction says what
/// Apple's says: `offerType` 3, the offer's reference name, `offerDiscountType` `ONE_TIME`, no
/// `offerPeriod`, the offer's price.
@Suite(.timeLimit(.minutes(10)))
struct OneTimeOfferCodeTests {
    let demo: DemoEngine

    init() throws { demo = try DemoEngine() }

    /// One product's code offer and what a redeemed code's transaction must carry.
    struct Case: Sendable, CustomTestStringConvertible {
        let productID: String
        let offer: String
        let referenceName: String
        let type: ProductType
        let price: Decimal
        var testDescription: String { "\(type.rawValue) \(productID)" }
    }

    static let cases = [
        Case(
            productID: DemoCatalog.coins550, offer: DemoCatalog.coinsCodeOffer, referenceName: "Code: 550 coins free",
            type: .consumable, price: 0),
        Case(
            productID: DemoCatalog.removeAds, offer: DemoCatalog.removeAdsCodeOffer,
            referenceName: "Code: Remove ads half price", type: .nonConsumable, price: Decimal(string: "1.99")!),
        Case(
            productID: DemoCatalog.seasonPass, offer: DemoCatalog.seasonPassCodeOffer,
            referenceName: "Code: Winter pass half price", type: .nonRenewing, price: Decimal(string: "3.99")!),
    ]

    /// The signed transaction's payload, verified against the store's own root.
    func signed(
        _ transaction: StoreCore.Transaction, _ backend: LocalAppStore
    ) async throws
        -> JWSTransactionDecodedPayload
    {
        _ = try await backend.receipts.receiptIssuer()
        let root = Array(try Data(contentsOf: backend.receipts.rootCertificateURL))
        let verifier = try JWSVerifier(trustedRoots: [root])
        let jws = try #require(transaction.signedTransaction)
        return try #require(verifier.verifyTransaction(jws).payload)
    }

    @Test func theCatalogReadsEachProductsCodeOffer() throws {
        for item in Self.cases {
            let product = try #require(demo.catalog.product(id: item.productID))
            let offer = try #require(product.codeOffer(named: item.offer), "\(item)")
            #expect(offer.referenceName == item.referenceName && offer.identifier == item.offer)
            #expect(product.codeOffer(named: item.referenceName) == offer)
            guard case .oneTime(let terms) = offer else {
                Issue.record("\(item.productID)'s code offer is not a one-time offer")
                continue
            }
            #expect(demo.catalog.price(of: terms, for: product, in: .unitedStates).amount == item.price)
        }
    }

    @Test(arguments: cases) func aCodeIsRedeemedOnceAtTheOffersPriceAndSignedAsApplesIs(_ item: Case) async throws {
        let (backend, store) = try await demo.launch()
        // Issued by the offer's reference name; the code files the offer under its identifier.
        let code = try #require(
            try await backend.offers.issueCodes(productID: item.productID, offerID: item.referenceName).first)
        #expect(code.productID == item.productID && code.offerID == item.offer)

        let verified = try await store.redeem(offerCode: code.code)
        #expect(verified.isVerified)
        let transaction = verified.unsafePayloadValue
        #expect(transaction.productID == item.productID && transaction.productType == item.type)
        #expect(transaction.offerType == .code && transaction.offerID == item.referenceName)
        #expect(transaction.price == item.price && transaction.currencyCode == "USD")
        #expect(transaction.payment.offerCode == code.code && transaction.state == .purchased)

        let payload = try await signed(transaction, backend)
        #expect(payload.offerType == .subscriptionOfferCode && payload.rawOfferType == 3)
        #expect(payload.offerIdentifier == item.referenceName)
        #expect(payload.offerDiscountType == .oneTime && payload.rawOfferDiscountType == "ONE_TIME")
        #expect(payload.offerPeriod == nil)
        #expect(payload.price == NSDecimalNumber(decimal: item.price * 1000).int64Value)
        #expect(payload.productId == item.productID && payload.currency == "USD")

        let listed = try await backend.offers.codes()
        #expect(listed.first?.transactionID == transaction.transactionID && listed.first?.isRedeemed == true)

        do throws(OfferCodeRedemptionError) {
            _ = try await store.redeem(offerCode: code.code)
            Issue.record("a code of \(item.productID) was redeemed twice")
        } catch {
            guard case .failed(.ineligibleForOffer(let reason), nil) = error else {
                Issue.record("a second redemption failed otherwise: \(error)")
                return
            }
            #expect(reason.hasPrefix("the offer code \(code.code) was redeemed already ("))
        }
    }

    @Test func aNonConsumableTheCustomerOwnsIsNotBoughtWithACodeAndTheCodeIsKept() async throws {
        let (backend, store) = try await demo.launch()
        _ = try #require(await store.purchase(DemoCatalog.removeAds).transaction)
        let code = try #require(
            try await backend.offers.issueCodes(
                productID: DemoCatalog.removeAds, offerID: DemoCatalog.removeAdsCodeOffer
            )
            .first)
        do throws(OfferCodeRedemptionError) {
            _ = try await store.redeem(offerCode: code.code)
            Issue.record("a code bought a non-consumable the customer owns")
        } catch {
            #expect(
                error
                    == .failed(
                        .ineligibleForOffer(
                            "the offer code \(code.code) is for \(DemoCatalog.removeAds), which this account owns already"
                        ),
                        nil))
        }
        #expect(try await backend.offers.codes().first?.isRedeemed == false)
    }

    @Test func aCodeOfAConsumableIsNotForAnotherProductAndAnUnknownOfferIsNamed() async throws {
        let (backend, _) = try await demo.launch()
        let code = try #require(
            try await backend.offers.issueCodes(productID: DemoCatalog.coins550, offerID: DemoCatalog.coinsCodeOffer)
                .first)
        // A code is for its own product: a payment of another with it is refused.
        await #expect(
            throws: StoreError.invalidOfferIdentifier(
                "the offer code \(code.code) is for \(DemoCatalog.coins550), not \(DemoCatalog.coins)")
        ) {
            _ = try await backend.add(Payment(productID: DemoCatalog.coins, offerCode: code.code))
        }
        await #expect(
            throws: LocalAppStoreError.unknownOffer(productID: DemoCatalog.coins, offerID: "C0DE0101", kind: "code")
        ) {
            _ = try await backend.offers.issueCodes(productID: DemoCatalog.coins, offerID: DemoCatalog.coinsCodeOffer)
        }
    }
}
