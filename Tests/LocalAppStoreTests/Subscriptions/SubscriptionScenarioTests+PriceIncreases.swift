import Catalog
import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// Price increases that need consent, as Apple runs them: the increase carries its new price;
/// renewal info shows `priceIncreaseStatus` and `renewalPrice` (milliunits) from the
/// announcement; consented, each renewal from the next one on is charged the new price (the
/// app's transaction, its signed payload and the store's ledger say so); without consent by
/// the renewal date the subscription expires with intent `priceIncrease`.
extension SubscriptionScenarioTests {
    /// The signed renewal info of the app's one subscription, decoded.
    func renewalPayload(_ app: App) async throws -> JWSRenewalInfoDecodedPayload {
        let jws = try #require(await app.backend.renewalInfo().first?.signedRenewalInfo)
        return try JWSVerifier.decodeUnverifiedPayload(jws, as: JWSRenewalInfoDecodedPayload.self).get()
    }

    /// The next transaction on the app's update stream that is none of `known` (a renewal).
    func nextRenewal(_ app: inout App, after known: [StoreCore.Transaction]) async throws -> StoreCore.Transaction {
        let ids = Set(known.map(\.transactionID))
        while true {
            let t = try #require(await app.nextUpdate())
            if !ids.contains(t.transactionID) { return t }
        }
    }

    /// A transaction's signed payload, decoded.
    func transactionPayload(_ t: StoreCore.Transaction) throws -> JWSTransactionDecodedPayload {
        let jws = try #require(t.signedTransaction)
        return try JWSVerifier.decodeUnverifiedPayload(jws, as: JWSTransactionDecodedPayload.self).get()
    }

    @Test func aConsentedPriceIncreaseIsChargedFromTheNextRenewalOn() async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(first.price == Decimal(string: "2.99"))
        #expect(try await renewalPayload(app).renewalPrice == 2_990)
        #expect(try await renewalPayload(app).rawPriceIncreaseStatus == nil, "no increase yet")

        let announced = try await app.backend.subscriptions.priceIncrease(
            first.transactionID, price: Decimal(string: "4.49"))
        #expect(
            announced.price == Decimal(string: "4.49") && announced.currencyCode == "USD"
                && announced.status == .pending)
        var info = try await renewalPayload(app)
        #expect(
            info.priceIncreaseStatus == .customerHasNotResponded && info.renewalPrice == 4_490 && info.currency == "USD"
        )

        try await app.backend.subscriptions.priceIncrease(first.transactionID, consent: .accept)
        info = try await renewalPayload(app)
        #expect(
            info.priceIncreaseStatus == .customerConsentedOrWasNotifiedWithoutNeedingConsent
                && info.renewalPrice == 4_490)

        // The renewal date: the new price is charged.
        demo.clock.advance(by: 10)
        let renewal = try await nextRenewal(&app, after: [first])
        #expect(renewal.originalTransactionID == first.transactionID)
        #expect(renewal.price == Decimal(string: "4.49") && renewal.currencyCode == "USD")
        let signed = try transactionPayload(renewal)
        #expect(signed.price == 4_490 && signed.currency == "USD" && signed.transactionReason == .renewal)
        #expect(
            try await app.backend.transactionManager.charges().last?.price == Decimal(string: "4.49"),
            "the store's ledger charged it")

        // And on: the increase is the subscription's price now; it is no longer pending.
        info = try await renewalPayload(app)
        #expect(info.renewalPrice == 4_490 && info.rawPriceIncreaseStatus == nil)
        demo.clock.advance(by: 10)
        let next = try await nextRenewal(&app, after: [first, renewal])
        #expect(next.price == Decimal(string: "4.49"))
        #expect(try transactionPayload(next).price == 4_490)

        // A second increase starts from the new price.
        await #expect(
            throws: LocalAppStoreError.invalidPrice(
                productID: DemoCatalog.basic, price: "4.49",
                reason: "a price increase must be more than the current price, 4.49 USD")
        ) {
            try await app.backend.subscriptions.priceIncrease(first.transactionID, price: Decimal(string: "4.49"))
        }
    }

    @Test(arguments: ["unanswered", "declined"])
    func withoutConsentByTheRenewalDateItExpiresAndNothingIsCharged(_ answer: String) async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        try await app.backend.subscriptions.priceIncrease(first.transactionID, price: Decimal(string: "3.99"))
        if answer == "declined" {
            try await app.backend.subscriptions.priceIncrease(first.transactionID, consent: .decline)
        }
        #expect(
            try await renewalPayload(app).priceIncreaseStatus == .customerHasNotResponded,
            "a decline is 0 until it expires")
        #expect(try await renewalPayload(app).renewalPrice == 3_990)
        demo.clock.advance(by: 10)
        #expect(await app.waitForStatus(.expired).last == .expired)
        let lapsed = try #require(try await app.backend.subscriptions.all().first)
        #expect(lapsed.isExpired && lapsed.expiration?.intent == .priceIncrease)
        #expect(
            try await app.backend.transactionManager.charges().count == 1, "nothing was charged at the renewal date")
        #expect(try await entitled(app).isEmpty)
        // Buying again starts afresh at the catalog's price, and renews at it.
        let again = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(again.price == Decimal(string: "2.99"))
        demo.clock.advance(by: 10)
        let renewal = try await nextRenewal(&app, after: [first, again])
        #expect(
            renewal.originalTransactionID == first.transactionID && renewal.price == Decimal(string: "2.99"),
            "the old increase prices nothing")
        let info = try await renewalPayload(app)
        #expect(info.rawPriceIncreaseStatus == nil && info.renewalPrice == 2_990)
    }

    /// What the Transaction Manager loads in one call: each subscription with the increase of
    /// its current period, until that period ends and settles it.
    @Test func subscriptionsComeWithTheirCurrentPeriodsPriceIncrease() async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        var listed = try await app.backend.subscriptions.allWithPriceIncreases()
        #expect(listed.map(\.lifecycle) == (try await app.backend.subscriptions.all()))
        #expect(listed.map(\.lifecycle.originalTransactionID) == [first.transactionID])
        #expect(listed.first?.priceIncrease == nil, "none announced")

        try await app.backend.subscriptions.priceIncrease(first.transactionID, price: Decimal(string: "3.99"))
        listed = try await app.backend.subscriptions.allWithPriceIncreases()
        #expect(
            listed.first?.priceIncrease?.status == .pending
                && listed.first?.priceIncrease?.price == Decimal(string: "3.99"))
        try await app.backend.subscriptions.priceIncrease(first.transactionID, consent: .accept)
        #expect(try await app.backend.subscriptions.allWithPriceIncreases().first?.priceIncrease?.status == .accepted)

        demo.clock.advance(by: 10)
        _ = try await nextRenewal(&app, after: [first])
        listed = try await app.backend.subscriptions.allWithPriceIncreases()
        #expect(listed.map(\.lifecycle.originalTransactionID) == [first.transactionID])
        #expect(listed.first?.priceIncrease == nil, "the renewal settled it")
    }

    @Test func aPriceTheStoreCannotChargeIsRefusedNamingTheProblem() async throws {
        let app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        let cases: [(String, String)] = [
            ("2.999", "it has more decimals than USD allows (2)"),
            ("2.99", "a price increase must be more than the current price, 2.99 USD"),
            ("1", "a price increase must be more than the current price, 2.99 USD"),
        ]
        for (text, reason) in cases {
            let price = try Price.amount(parsing: text)
            await #expect(
                throws: LocalAppStoreError.invalidPrice(
                    productID: DemoCatalog.basic, price: text == "1" ? "1.00" : text, reason: reason)
            ) {
                try await app.backend.subscriptions.priceIncrease(first.transactionID, price: price)
            }
        }
        try await app.backend.subscriptions.priceIncrease(first.transactionID, price: Decimal(string: "3.49"))
        await #expect(throws: LocalAppStoreError.self) {
            try await app.backend.subscriptions.priceIncrease(
                first.transactionID, consent: .accept, price: Decimal(string: "5"))
        }
        #expect(try await app.backend.notifications.all().isEmpty, "notifications are off: nothing was made")
        #expect(throws: Price.TextError.self) { try Price.amount(parsing: "12,99") }
        #expect(throws: Price.TextError.self) { try Price.amount(parsing: "-1") }
    }

    /// A journal written before increases had prices: its increase reads, and a consented one
    /// renews at the catalog's price as it did then.
    @Test func anIncreaseJournaledWithoutAPriceStillReadsAndRenewsAtTheCatalogsPrice() async throws {
        let old =
            #"{"priceIncrease":{"originalTransactionID":"9","accountID":"a","productID":"p","date":0,"status":"accepted"}}"#
        let record = try JSONDecoder().decode(NotificationRecord.self, from: Data(old.utf8))
        #expect(record.priceIncrease?.price == nil && record.priceIncrease?.status == .accepted)

        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        try await app.backend.subscriptions.priceIncrease(first.transactionID)
        try await app.backend.subscriptions.priceIncrease(first.transactionID, consent: .accept)
        #expect(try await renewalPayload(app).renewalPrice == 2_990)
        demo.clock.advance(by: 10)
        let renewal = try await nextRenewal(&app, after: [first])
        #expect(renewal.price == Decimal(string: "2.99"))
    }
}
