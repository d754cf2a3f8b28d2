import Catalog
import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// Promotional offers, time-rate changes at run time, and web order line item IDs.
extension SubscriptionScenarioTests {
    /// The Demo catalog with extra promotional offers on Pro (monthly) and Basic (monthly).
    func catalogWithOffers(_ offers: [String: StoreKitConfiguration.SubscriptionOffer]) -> StoreKitConfiguration {
        let products = demo.catalog.products.map { product -> StoreKitConfiguration.Product in
            var product = product
            if let offer = offers[product.id] { product.subscription?.promotionalOffers.append(offer) }
            return product
        }
        return StoreKitConfiguration(
            file: demo.catalog.file, version: demo.catalog.version, products: products,
            subscriptionGroups: demo.catalog.subscriptionGroups, settings: demo.catalog.settings)
    }

    static let month = SubscriptionPeriod(value: 1, unit: .month)

    @Test func anOfferTheProductDoesNotHaveIsRefusedNamingIt() async throws {
        let app = try await launch()
        _ = await app.store.purchase(DemoCatalog.basic)
        let refused = await app.store.purchase(DemoCatalog.pro, offerID: "no.such.offer")
        guard case .failed(.invalidOfferIdentifier(let why), _) = refused else {
            Issue.record("an unknown offer was accepted: \(refused)")
            return
        }
        #expect(why.contains("no.such.offer") && why.contains(DemoCatalog.pro), "\(why)")
        #expect(try await app.backend.transactionManager.charges().count == 1)
    }

    /// A current subscriber's promotional offer prices the periods it covers: on an upgrade
    /// from now, and the renewals after are tagged with it until it runs out.
    @Test func aPromotionalOfferOnAnUpgradePricesThisAndTheNextPeriod() async throws {
        let half = StoreKitConfiguration.SubscriptionOffer(
            id: "pro.half", paymentMode: .payAsYouGo, period: Self.month, numberOfPeriods: 2,
            price: Decimal(string: "1.99")!)
        var app = try await launch(catalog: catalogWithOffers([DemoCatalog.pro: half]))
        _ = await app.store.purchase(DemoCatalog.basic)
        demo.clock.advance(by: 3)
        let upgraded = try #require(await app.store.purchase(DemoCatalog.pro, offerID: "pro.half").transaction)
        #expect(
            upgraded.price == Decimal(string: "1.99") && upgraded.offerType == .promotional
                && upgraded.offerID == "pro.half")
        _ = await app.nextUpdate()  // the replaced Basic period, now upgraded
        demo.clock.advance(by: 10)
        let second = try #require(await app.nextUpdate())
        #expect(
            second.price == Decimal(string: "1.99") && second.offerType == .promotional && second.offerID == "pro.half")
        demo.clock.advance(by: 10)
        let third = try #require(await app.nextUpdate())
        #expect(third.price == Decimal(string: "9.99") && third.offerType == nil, "the offer covered two periods")
        let entries = try await receiptEntries(app)
        #expect(entries[second.transactionID]?.promotionalOfferIdentifier == "pro.half")
        #expect(entries[third.transactionID]?.promotionalOfferIdentifier == nil)
    }

    /// Without an upgrade the offer waits for the next renewal; nothing is charged now.
    @Test func aPromotionalOfferOnTheSameProductStartsAtTheNextRenewal() async throws {
        let loyal = StoreKitConfiguration.SubscriptionOffer(
            id: "basic.loyal", paymentMode: .payAsYouGo, period: Self.month, numberOfPeriods: 1,
            price: Decimal(string: "0.49")!)
        var app = try await launch(catalog: catalogWithOffers([DemoCatalog.basic: loyal]))
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        _ = await app.store.purchase(DemoCatalog.basic, offerID: "basic.loyal")
        #expect(try await app.backend.transactionManager.charges().count == 1, "nothing charged until the renewal")
        demo.clock.advance(by: 10)
        let discounted = try #require(await app.nextUpdate())
        #expect(discounted.originalTransactionID == first.transactionID)
        #expect(
            discounted.price == Decimal(string: "0.49") && discounted.offerType == .promotional
                && discounted.offerID == "basic.loyal")
        demo.clock.advance(by: 10)
        let full = try #require(await app.nextUpdate())
        #expect(full.price == first.price && full.offerType == nil)
    }

    /// Changing the rate at run time: a period longer than one new period ends one new
    /// period from now, and the app hears of the new expiry.
    @Test func aFasterTimeRateShortensTheCurrentPeriodAtOnce() async throws {
        var app = try await launch(settings: ["time-rate": "every-15-minutes"])
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(first.expiresDate == demo.clock.now.addingTimeInterval(900))
        demo.clock.advance(by: 60)
        try await app.backend.settings.set(name: "time-rate", value: "every-2-seconds")
        let shortened = try #require(await app.nextUpdate())
        #expect(shortened.transactionID == first.transactionID)
        #expect(shortened.expiresDate == demo.clock.now.addingTimeInterval(2))
        demo.clock.advance(by: 2)
        let renewal = try #require(await app.nextUpdate())
        #expect(renewal.purchaseDate == demo.clock.now && renewal.expiresDate == demo.clock.now.addingTimeInterval(2))
        #expect(try await entitled(app) == [DemoCatalog.basic])
        #expect(
            try await receiptEntries(app)[first.transactionID]?.expiresDate.map { Int($0.timeIntervalSince1970) }
                == shortened.expiresDate.map { Int($0.timeIntervalSince1970) })
    }

    /// Renewals that fell due at the old rate, while no process ran, are journaled at the old
    /// rate when the rate changes, before the new rate applies.
    @Test func renewalsDueAtTheOldRateKeepItsPeriods() async throws {
        do {
            let app = try await launch()
            _ = await app.store.purchase(DemoCatalog.basic)
            await app.store.stop()
        }
        demo.clock.advance(by: 25)  // two renewals fall due at every-10-seconds
        let backend = try makeStore(demo.directory, catalog: demo.catalog, clock: demo.clock)
        try await backend.settings.set(name: "time-rate", value: "every-minute")
        let periods = try await backend.subscriptions.all()
        #expect(periods.count == 1)
        let store = try makeEngine(backend, in: demo.directory, clock: demo.clock)
        await store.start()
        let history = try await store.history().sorted { $0.purchaseDate < $1.purchaseDate }
        #expect(history.count == 3)
        let lengths = history.compactMap { t in t.expiresDate.map { $0.timeIntervalSince(t.purchaseDate) } }
        #expect(lengths == [10, 10, 10], "each period that fell due before the change lasted 10 s")
    }

    /// Web order line item IDs stay unique however many periods a subscription has.
    @Test func webOrderLineItemIDsStayUniquePastAThousandPeriods() throws {
        let desk = SubscriptionDesk(
            catalog: demo.catalog, settings: LocalStoreSettings(), now: demo.clock.now, currentStorefront: .unitedStates
        )
        var state = JournalState(settings: LocalStoreSettings())
        var stored = StoredSubscription(
            accountID: "a",
            lifecycle: SubscriptionLifecycle(
                originalTransactionID: state.allocateTransactionID(), groupID: "g", productID: DemoCatalog.basic,
                periodStart: demo.clock.now, periodEnd: demo.clock.now.addingTimeInterval(10), webOrderLineItemID: 1),
            latestTransactionID: "none")
        let events = (2...1_105).map { n in
            SubscriptionLifecycle.Event.renewed(
                productID: DemoCatalog.basic, start: demo.clock.now.addingTimeInterval(Double(n) * 10),
                end: demo.clock.now.addingTimeInterval(Double(n + 1) * 10), webOrderLineItemID: n)
        }
        let records = desk.renewals(events, for: &stored, state: &state)
        let ids = records.compactMap { $0.entry?.transaction.webOrderLineItemID }
        #expect(ids.count == 1_104)
        #expect(Set(ids).count == 1_104)
        #expect(ids.allSatisfy { Int64($0) != nil }, "numeric, as the receipt encodes them")
    }

    /// An offer is the product's: it does not carry over to the product a downgrade renews into.
    @Test func aPromotionalOfferDoesNotCarryOverToADowngrade() async throws {
        var app = try await launch()
        _ = await app.store.purchase(DemoCatalog.pro)
        let pending = await app.store.purchase(DemoCatalog.pro, offerID: DemoCatalog.comeback)
        #expect(pending.transaction?.offerType == nil, "the offer waits for the next renewal")
        _ = await app.store.purchase(DemoCatalog.basic)  // downgrade at the renewal
        demo.clock.advance(by: 10)
        var renewal = try #require(await app.nextUpdate())
        if renewal.productID != DemoCatalog.basic { renewal = try #require(await app.nextUpdate()) }
        #expect(renewal.productID == DemoCatalog.basic)
        #expect(renewal.offerType == nil && renewal.offerID == nil)
        #expect(renewal.price == Decimal(string: "2.99"))
    }

    /// After a downgrade the period has two transactions (the paid one and the downgrade's
    /// answer): refunding either refunds the period and ends the subscription.
    @Test func refundingThePaidPeriodAfterADowngradeEndsTheSubscription() async throws {
        var app = try await launch()
        let paid = try #require(await app.store.purchase(DemoCatalog.basicYearly).transaction)
        let answer = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(answer.webOrderLineItemID == paid.webOrderLineItemID)
        try await app.backend.transactionManager.refund(transactionID: paid.transactionID)
        #expect(await app.waitForStatus(.revoked).last == .revoked)
        #expect(try await entitled(app).isEmpty)
        #expect(try await app.backend.subscriptions.all().first?.isExpired == true)
        let history = try await app.store.history()
        #expect(history.allSatisfy { $0.revocationDate != nil }, "both transactions of the period are revoked")
        let entries = try await receiptEntries(app)
        #expect(entries.values.allSatisfy { $0.cancellationDate != nil })
    }

    /// An upgrade after a downgrade replaces the whole period; restoring keeps it replaced.
    @Test func anUpgradeAfterADowngradeCancelsThePaidPeriodAlsoAfterRestore() async throws {
        let app = try await launch()
        let paid = try #require(await app.store.purchase(DemoCatalog.plus).transaction)
        let answer = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        demo.clock.advance(by: 2)
        let pro = try #require(await app.store.purchase(DemoCatalog.pro).transaction)
        await app.store.synchronize()
        let upgraded = try await app.store.history().filter(\.isUpgraded).map(\.transactionID).sorted()
        #expect(upgraded == [paid.transactionID, answer.transactionID].sorted())
        _ = try await app.store.restoreTransactions()
        let entries = try await receiptEntries(app)
        let active = entries.values.filter {
            $0.cancellationDate == nil && ($0.expiresDate ?? .distantPast) > demo.clock.now
        }
        #expect(Set(active.map(\.productID)) == [DemoCatalog.pro], "only the upgrade stays active in the receipt")
        #expect(
            entries.values.filter { $0.productID == DemoCatalog.plus }.allSatisfy {
                $0.cancellationDate.map { Int($0.timeIntervalSince1970) } == Int(pro.purchaseDate.timeIntervalSince1970)
            })
        #expect(try await entitled(app) == [DemoCatalog.pro])
    }
}
