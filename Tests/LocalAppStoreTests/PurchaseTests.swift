import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

@Suite(.timeLimit(.minutes(10))) struct PurchaseTests {
    @Test func aPurchaseGoesPurchasingThenPurchasedThenLeavesTheQueueWhenFinished() async throws {
        var shop = try await Shop()
        let store = shop.store

        let payment = Payment(productID: TestCatalog.coins, quantity: 3, orderData: ["order": "A-17"])
        let queued = try await store.add(payment)
        #expect(queued.state == .purchasing)
        #expect(UInt64(queued.transactionID) != nil)
        #expect(queued.payment == payment)
        #expect(queued.price == Decimal(string: "0.99"))
        #expect(queued.currencyCode == "USD")
        #expect(queued.storefront == "USA")

        let decided = await shop.events.nextDecision(of: queued.transactionID, .purchased)
        #expect(decided?.quantity == 3)
        #expect(decided?.payment.orderData == ["order": "A-17"])
        #expect(decided?.purchaseDate == shop.rig.clock.now)
        #expect(try await store.unfinishedTransactions().map(\.transactionID) == [queued.transactionID])
        #expect(try await store.transactionManager.charges().map(\.transactionID) == [queued.transactionID])

        try await store.finish(transactionID: queued.transactionID)
        #expect(await shop.events.nextRemoval() == [queued.transactionID])
        #expect(try await store.unfinishedTransactions().isEmpty)
        #expect(try await store.transactionManager.history().map(\.transactionID) == [queued.transactionID])
        await #expect(throws: StoreError.unknownTransaction(queued.transactionID)) {
            try await store.finish(transactionID: queued.transactionID)
        }
    }

    @Test func transactionIDsAreNumericIncreasingAndNeverReusedAcrossInstances() async throws {
        let dir = try TemporaryDirectory()
        var ids: [UInt64] = []
        for _ in 0..<3 {
            let store = try makeStore(dir)
            var events = EventReader(await store.events())
            for _ in 0..<2 {
                let bought = try await buy(store, &events, TestCatalog.coins)
                ids.append(try #require(UInt64(bought.transactionID)))
                try await store.finish(transactionID: bought.transactionID)
            }
        }
        #expect(ids.count == 6)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test func theSamePaymentAddedTwiceIsOneTransactionChargedOnce() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        var events = EventReader(await store.events())
        let payment = Payment(productID: TestCatalog.coins, requestID: "request-1")
        let first = try await store.add(payment)
        _ = await events.nextUpdate()
        let again = try await store.add(payment)
        #expect(again.transactionID == first.transactionID)
        #expect(again.state == .purchased)
        let other = try await store.add(Payment(productID: TestCatalog.coins, requestID: "request-2"))
        #expect(other.transactionID != first.transactionID)
        _ = await events.nextUpdate()
        #expect(
            try await store.transactionManager.charges().map(\.transactionID) == [
                first.transactionID, other.transactionID,
            ])
    }

    @Test func quantitiesAndOffersAreChecked() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, latency: 1000)  // purchases stay .purchasing
        await #expect(throws: StoreError.self) {
            try await store.add(Payment(productID: TestCatalog.coins, quantity: 0))
        }
        await #expect(throws: StoreError.self) {
            try await store.add(Payment(productID: TestCatalog.coins, quantity: 11))
        }
        await #expect(throws: StoreError.self) { try await store.add(Payment(productID: TestCatalog.pro, quantity: 2)) }
        await #expect(throws: StoreError.self) {
            try await store.add(Payment(productID: TestCatalog.monthly, offerID: "no-such-offer"))
        }
        await #expect(throws: StoreError.productNotAvailable(productID: TestCatalog.missing)) {
            try await store.add(Payment(productID: TestCatalog.missing))
        }
        let withOffer = try await store.add(Payment(productID: TestCatalog.monthly, offerID: "winback"))
        do {
            try await store.finish(transactionID: withOffer.transactionID)
            Issue.record("a purchasing transaction was finished")
        } catch {
            guard case .paymentInvalid(let why) = error else {
                Issue.record("expected .paymentInvalid, got \(error)")
                return
            }
            #expect(why.contains(withOffer.transactionID))
        }
        #expect(withOffer.payment.offerID == "winback")
        #expect(withOffer.offerID == "winback")
        #expect(withOffer.offerType == .promotional)
        #expect(withOffer.subscriptionGroupID == "G1")
        #expect(try await store.transactionManager.history().count == 1)
    }

    @Test func buyingAnOwnedNonConsumableAgainDeliversItWithoutASecondCharge() async throws {
        var shop = try await Shop()
        let first = try await shop.buy(TestCatalog.pro)
        let second = try await shop.buy(TestCatalog.pro)
        #expect(second.state == .purchased)
        #expect(second.originalTransactionID == first.transactionID)
        #expect(try await shop.store.transactionManager.charges().map(\.transactionID) == [first.transactionID])
    }

    @Test func aSubscriptionsFirstPeriodIsItsFreeTrialThenOnePeriodPerRenewal() async throws {
        let rig = try EngineRig()
        let store = try rig.store()
        var events = EventReader(await store.events())
        let bought = try await buy(store, &events, TestCatalog.monthly)
        // The catalog's introductory offer: one free week, in real time.
        #expect(bought.offerType == .introductory)
        #expect(bought.price == 0)
        #expect(bought.expiresDate == SubscriptionPeriod(value: 1, unit: .week).advance(rig.clock.now))
        rig.clock.advance(by: 7 * 86_400)
        let renewal = await events.nextUpdate().first
        #expect(renewal?.originalTransactionID == bought.transactionID)
        #expect(renewal?.expiresDate == SubscriptionPeriod(value: 1, unit: .month).advance(rig.clock.now))
    }

    @Test func latencyPassesOnTheInjectedClock() async throws {
        var shop = try await Shop(latency: 600)
        let clock = shop.rig.clock
        let queued = try await shop.store.add(Payment(productID: TestCatalog.coins))
        await clock.waitForSleepers()
        #expect(try await shop.store.transactionManager.charges().isEmpty)
        clock.advance(by: 0.6)
        let decided = await shop.events.nextDecision(of: queued.transactionID, .purchased)
        #expect(decided?.purchaseDate == clock.now)
    }

    @Test func theChargeIsDurableBeforeTheFaultHookRunsAndBeforeTheAppHears() async throws {
        let dir = try TemporaryDirectory()
        let recorder = FaultRecorder()
        let stateDirectory = dir.stateDirectory.path
        let store = try makeStore(
            dir,
            faultHook: { point in
                // What another process would read at this instant, straight from the disk.
                let onDisk =
                    (try? StoreJournal(
                        directory: stateDirectory, initialSettings: LocalStoreSettings(), metrics: StoreMetrics()))?
                    .state
                let charged = onDisk?.orderedEntries.filter(\.charged).count ?? -1
                recorder.record(FaultPoint(rawValue: "\(point.rawValue):\(charged)"))
            })
        var events = EventReader(await store.events())
        _ = try await buy(store, &events, TestCatalog.coins)
        #expect(recorder.recorded == [FaultPoint(rawValue: "before-charge:0"), FaultPoint(rawValue: "after-charge:1")])
    }

    @Test func onePurchaseCostsOneFsync() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        var events = EventReader(await store.events())
        let before = store.metrics.fsyncs
        let appendsBefore = store.metrics.appends
        let bought = try await buy(store, &events, TestCatalog.coins)
        try await store.finish(transactionID: bought.transactionID)
        // Only the charge is a synced append (its sync makes the queued line before it durable
        // too); queued and finished are appended without one.
        #expect(store.metrics.fsyncs - before == 1)
        #expect(store.metrics.appends - appendsBefore == 3)
    }

    @Test func promotedPurchasesAreAnnouncedOnTheStream() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        var events = EventReader(await store.events())
        try await store.transactionManager.requestStorePayment(productID: TestCatalog.pro)
        guard case .storePaymentRequested(let payment, let product)? = await events.next() else {
            Issue.record("expected a store payment request")
            return
        }
        #expect(payment.productID == TestCatalog.pro)
        #expect(product.displayName == "Pro")
        await #expect(throws: LocalAppStoreError.unknownProduct(TestCatalog.missing)) {
            try await store.transactionManager.requestStorePayment(productID: TestCatalog.missing)
        }
    }
}
