import Catalog
import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// Edge cases found by exercising the CLI as an app developer would: restores, storefronts,
/// buying or cancelling in billing retry, refusals.
extension SubscriptionScenarioTests {

    /// A restore makes copies; a refund or an expiry covers them too, and a copy can be refunded.
    @Test func refundsAndExpiriesReachRestoredCopies() async throws {
        var app = try await launch()
        let subscription = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        let removeAds = try #require(await app.store.purchase(DemoCatalog.removeAds).transaction)
        let copies = try await app.store.restoreTransactions()
        #expect(Set(copies.map(\.productID)) == [DemoCatalog.basic, DemoCatalog.removeAds])

        try await app.backend.subscriptions.expire(subscription.transactionID)
        #expect(await app.waitForStatus(.expired).last == .expired)
        #expect(try await entitled(app) == [DemoCatalog.removeAds], "the restored copy of the period ended too")

        let copy = try #require(copies.first { $0.productID == DemoCatalog.removeAds })
        try await app.backend.transactionManager.refund(transactionID: copy.transactionID)
        var revoked: Set<String> = []
        while revoked.count < 2, let update = await app.nextUpdate() {
            if update.productID == DemoCatalog.removeAds, update.revocationDate != nil {
                revoked.insert(update.transactionID)
            }
        }
        #expect(revoked == [removeAds.transactionID, copy.transactionID])
        #expect(try await entitled(app).isEmpty, "refunding the copy refunded the purchase")
        let history = try await app.store.history().filter { $0.productID == DemoCatalog.removeAds }
        #expect(history.count == 2 && history.allSatisfy { $0.revocationDate != nil })
        #expect(
            try await receiptEntries(app).values.filter { $0.productID == DemoCatalog.removeAds }.allSatisfy {
                $0.cancellationDate != nil
            })

        await #expect(
            throws: LocalAppStoreError.alreadyRefunded(transactionID: removeAds.transactionID, on: demo.clock.now)
        ) {
            try await app.backend.transactionManager.refund(transactionID: removeAds.transactionID)
        }
    }

    /// Renewals are charged in the storefront the customer subscribed in.
    @Test func renewalsAreChargedInTheSubscribersStorefront() async throws {
        var app = try await launch()
        try await app.backend.settings.setStorefront("JPN")
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(first.currencyCode == "JPY")
        try await app.backend.settings.setStorefront("DEU")
        demo.clock.advance(by: 10)
        let renewal = try #require(await app.nextUpdate())
        #expect(renewal.currencyCode == "JPY" && renewal.price == first.price && renewal.storefront == first.storefront)
    }

    /// Buys Basic on `app`, then fails its renewal's billing: the subscription is in billing
    /// retry (without grace). The purchase.
    func inBillingRetry(_ app: inout App) async throws -> StoreCore.Transaction {
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        try await app.backend.subscriptions.setBillingIssue(first.transactionID, on: true)
        try await app.backend.subscriptions.renew(first.transactionID)
        #expect(await app.waitForStatus(.inBillingRetryPeriod).last == .inBillingRetryPeriod)
        return first
    }

    /// In billing retry without grace, buying again pays for a new period at once.
    @Test func buyingAgainInBillingRetryPaysForANewPeriod() async throws {
        var app = try await launch()
        let first = try await inBillingRetry(&app)
        let again = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(again.transactionID != first.transactionID && again.originalTransactionID == first.transactionID)
        #expect(again.price == first.price && again.expiresDate == demo.clock.now.addingTimeInterval(10))
        #expect(try await app.backend.transactionManager.charges().count == 2)
        #expect(try await entitled(app) == [DemoCatalog.basic])
        #expect(await app.backend.renewalInfo().first?.isInBillingRetry == false)
    }

    /// Cancelling in billing retry, then fixing billing, ends the subscription: nothing renews.
    @Test func cancellingInBillingRetryThenResolvingEndsIt() async throws {
        var app = try await launch()
        let first = try await inBillingRetry(&app)
        try await app.backend.subscriptions.setAutoRenew(first.transactionID, on: false)
        try await app.backend.subscriptions.setBillingIssue(first.transactionID, on: false)
        #expect(await app.waitForStatus(.expired).last == .expired)
        #expect(try await app.backend.transactionManager.charges().count == 1, "no renewal was charged")
        #expect(await app.backend.renewalInfo().first?.expirationIntent == .cancelled)
        // An ended subscription refuses what only a running one can do.
        await #expect(throws: LocalAppStoreError.self) {
            try await app.backend.subscriptions.setAutoRenew(first.transactionID, on: true)
        }
        await #expect(throws: LocalAppStoreError.self) {
            try await app.backend.subscriptions.setBillingIssue(first.transactionID, on: true)
        }
    }

    /// A forced renewal ends the current period now: its transaction expires when the next begins.
    @Test func aForcedRenewalEndsThePreviousPeriod() async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        demo.clock.advance(by: 3)
        let renewal = try #require(try await app.backend.subscriptions.renew(first.transactionID))
        var seen: [StoreCore.Transaction] = []
        while seen.count < 2, let update = await app.nextUpdate() { seen.append(update) }
        #expect(seen.first { $0.transactionID == first.transactionID }?.expiresDate == demo.clock.now)
        #expect(seen.contains { $0.transactionID == renewal.transactionID })
        #expect(
            try await receiptEntries(app)[first.transactionID]?.expiresDate.map { Int($0.timeIntervalSince1970) }
                == Int(demo.clock.now.timeIntervalSince1970))
    }
}
