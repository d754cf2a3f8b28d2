import Catalog
import Foundation
import Receipts
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// Offers as Xcode writes them: offer codes with only an `internalID` and a `referenceName`, a
/// promotional offer with all three names, a win-back offer with no `offerID`. Each is found by
/// any of its names, and a transaction carries what Apple's does: a code's reference name, a
/// promotional offer's `offerID`.
@Suite(.timeLimit(.minutes(10)))
struct XcodeOfferNamesTests {
    static let monthly = "com.example.pro.monthly"

    static let catalog = """
        {
          "products" : [ ], "settings" : { "_storefront" : "USA" },
          "subscriptionGroups" : [ { "id" : "G", "name" : "Pro", "subscriptions" : [ {
            "adHocOffers" : [ { "displayPrice" : "0.99", "internalID" : "P-INT", "numberOfPeriods" : 1,
              "offerID" : "promo.spring", "paymentMode" : "payUpFront", "referenceName" : "Spring sale", "subscriptionPeriod" : "P1M" } ],
            "codeOffers" : [
              { "billingPlanType" : "BILLED_UPFRONT", "eligibility" : [ "new", "expired", "existing" ],
                "internalID" : "8ab414ac-7421-4ec9-8300-9f4e9525393c", "isStackable" : false, "numberOfPeriods" : 1,
                "paymentMode" : "free", "referenceName" : "1-Month Pro Free", "subscriptionPeriod" : "P1M" },
              { "eligibility" : [ "new", "expired", "existing" ], "internalID" : "C-HALF", "numberOfPeriods" : 2,
                "paymentMode" : "payAsYouGo", "displayPrice" : "1.49", "referenceName" : "Half price", "subscriptionPeriod" : "P1M" } ],
            "displayPrice" : "2.99", "familyShareable" : false, "groupNumber" : 1, "internalID" : "1",
            "introductoryOffers" : [ ], "localizations" : [ { "description" : "Pro", "displayName" : "Pro", "locale" : "en_US" } ],
            "productID" : "\(monthly)", "recurringSubscriptionPeriod" : "P1M", "referenceName" : "Pro Monthly",
            "subscriptionGroupID" : "G", "type" : "RecurringSubscription",
            "winbackOffers" : [ { "displayPrice" : "0.49", "internalID" : "W-INT", "numberOfPeriods" : 1,
              "paymentMode" : "payUpFront", "referenceName" : "Come back", "subscriptionPeriod" : "P1M" } ] } ] } ],
          "version" : { "major" : 6, "minor" : 3 }
        }
        """

    /// The directory the store lives in (removed when the suite's value goes).
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func launch() async throws -> (LocalAppStore, Store, ManualClock) {
        let catalog = try StoreKitConfiguration.decode(data: Data(Self.catalog.utf8), file: "Names.storekit")
        let clock = ManualClock()
        let (backend, store) = try await launchEngine(directory, catalog: catalog, clock: clock)
        return (backend, store, clock)
    }

    @Test func anOfferIsFoundByItsOfferIDElseItsInternalIDOrReferenceName() throws {
        let catalog = try StoreKitConfiguration.decode(data: Data(Self.catalog.utf8), file: "Names.storekit")
        let info = try #require(catalog.product(id: Self.monthly)?.subscription)
        let free = try #require(info.codeOffers.first)
        #expect(info.codeOffers.offer(named: "1-Month Pro Free") == free)
        #expect(info.codeOffers.offer(named: "8ab414ac-7421-4ec9-8300-9f4e9525393c") == free)
        #expect(info.codeOffers.offer(named: "C-HALF")?.referenceName == "Half price")
        #expect(info.codeOffers.offer(named: "nothing") == nil)
        #expect(free.identifier == "8ab414ac-7421-4ec9-8300-9f4e9525393c")
        let promotional = try #require(info.promotionalOffers.first)
        #expect(
            ["promo.spring", "P-INT", "Spring sale"].map(info.promotionalOffers.offer(named:)) == [
                promotional, promotional, promotional,
            ])
        #expect(promotional.identifier == "promo.spring")
        #expect(promotional.names == ["promo.spring", "P-INT", "Spring sale"])
    }

    @Test func aCodeIssuedByItsReferenceNameIsRedeemedAndTheTransactionCarriesThatName() async throws {
        let (backend, store, _) = try await launch()
        let byName = try #require(
            try await backend.offers.issueCodes(productID: Self.monthly, offerID: "1-Month Pro Free").first)
        // The code is filed under the offer's identifier, whichever name issued it.
        #expect(byName.offerID == "8ab414ac-7421-4ec9-8300-9f4e9525393c")
        let verified = try await store.redeem(offerCode: byName.code)
        #expect(verified.isVerified)
        let transaction = verified.unsafePayloadValue
        #expect(transaction.offerType == .code)
        #expect(transaction.offerID == "1-Month Pro Free")
        #expect(transaction.price == 0)
        let jws = try #require(transaction.signedTransaction)
        let payload = String(decoding: try #require(Base64URL.decode(jws.split(separator: ".")[1])), as: UTF8.self)
        #expect(
            payload.contains(#""offerIdentifier":"1-Month Pro Free""#) && payload.contains(#""offerType":3"#),
            "\(payload)")
        await #expect(throws: LocalAppStoreError.self) {
            _ = try await backend.offers.issueCodes(productID: Self.monthly, offerID: "no such offer")
        }
    }

    @Test func aPaidCodeIssuedByItsInternalIDIsChargedItsPriceAndRenewsAtIt() async throws {
        let (backend, store, _) = try await launch()
        let code = try #require(try await backend.offers.issueCodes(productID: Self.monthly, offerID: "C-HALF").first)
        #expect(code.offerID == "C-HALF")
        let transaction = try await store.redeem(offerCode: code.code).unsafePayloadValue
        #expect(transaction.offerID == "Half price")
        #expect(transaction.price == Decimal(string: "1.49"))
        let renewed = try #require(try await backend.subscriptions.renew(transaction.originalTransactionID))
        #expect(renewed.price == Decimal(string: "1.49"), "the second of two discounted periods")
        #expect(renewed.offerID == "Half price" && renewed.offerType == .code)
    }

    @Test func aPromotionalOfferNamedByItsReferenceNameCarriesItsOfferID() async throws {
        let (backend, store, _) = try await launch()
        _ = try #require(await store.purchase(Self.monthly).transaction)
        // A lapsed subscriber comes back at the offer's terms.
        try await backend.subscriptions.expire(Self.monthly)
        let result = await store.purchase(Self.monthly, options: PurchaseOptions(offerID: "Spring sale"))
        let transaction = try #require(result.transaction, "\(result)")
        #expect(transaction.offerType == .promotional)
        #expect(transaction.offerID == "promo.spring")
        #expect(transaction.price == Decimal(string: "0.99"))
    }

    @Test func theEnginesProductsNameEveryOfferSoTheStorefrontCanChooseIt() async throws {
        let (_, store, _) = try await launch()
        let product = try #require(try await store.requestProducts([Self.monthly]).products.first)
        #expect(product.subscription?.promotionalOffers.map(\.id) == ["promo.spring"])
        #expect(product.subscription?.winBackOffers.map(\.id) == ["W-INT"])
    }
}
