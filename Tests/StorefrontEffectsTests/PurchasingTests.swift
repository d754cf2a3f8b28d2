import StoreCore
import StorefrontUI
import Testing

/// Buying, driven through the reducer and the effects against a fake store: each step the
/// sheet shows arrives as an action, and the store is asked what a purchase asks of it.
struct PurchasingTests {
    typealias F = Fixtures

    /// Buys the first product (100 Coins) from the list: the sheet opens, then the purchase
    /// runs with its steps.
    private func buyCoins(_ store: TestStore) async {
        await store.send(.key(.enter)) { $0.modal = .confirm(productID: F.coins) }
        await store.send(.key(.enter)) {
            $0.flows[F.coins] = PurchaseFlow(productID: F.coins, phase: .contacting, hasDownloads: false, quantity: 1)
            $0.modal = .purchase(productID: F.coins)
            $0.animationInterval = 100
        }
        #expect(
            store.effects == [
                .purchase(productID: F.coins, quantity: 1, offerID: nil), .every(.milliseconds(100), .tick),
            ])
    }

    @Test func aPurchaseWithoutContentTicksEveryStepThenLoadsWhatTheAccountHas() async {
        let bought = F.transaction("1", F.coins, .consumable)
        let fake = FakeStore(
            FakeStore.Script(purchases: [F.coins: .purchased(bought)], history: [bought], balances: [F.coins: 1]))
        let store = TestStore(F.loaded(), store: fake)
        await buyCoins(store)
        await store.receive(.purchasePhase(productID: F.coins, .authorizing)) {
            $0.flows[F.coins]?.phase = .authorizing
        }
        await store.receive(.purchasePhase(productID: F.coins, .verifying)) { $0.flows[F.coins]?.phase = .verifying }
        await store.receive(.purchasePhase(productID: F.coins, .done)) {
            $0.flows[F.coins]?.phase = .done
            $0.animationInterval = nil
        }
        await store.receive(.purchaseFinished(productID: F.coins, .success(.purchased(transactionID: "1")))) {
            $0.flows[F.coins]?.finishedAt = F.start
            F.report("Purchased 100 Coins", .success, in: &$0)
            $0.animationInterval = 500
        }
        #expect(store.effects == [.loadPurchases, .every(.milliseconds(500), .tick)])
        await store.receive(
            .purchasesLoaded(
                .success(
                    PurchasesSnapshot(
                        transactions: [bought], balances: [F.coins: 1], orderIDs: ["1": "ORDER-1"])))
        ) {
            $0.purchases = PurchasesSnapshot(transactions: [bought], balances: [F.coins: 1], orderIDs: ["1": "ORDER-1"])
        }
        store.finish()
        #expect(
            fake.calls == [
                "requestProduct \(F.coins)", "purchase \(F.coins) ×1", "history", "balances", "entitlements", "pending",
                "subscriptions 1",
            ])
    }

    @Test func aPurchaseWithContentFollowsItsDownloadUntilItSettles() async {
        let bought = F.transaction("7", F.forest, .nonConsumable)
        let downloads = FakeDownloads(
            FakeDownloads.Script(
                downloads: [F.download("7", F.forest, .waiting)],
                settles: ["7": F.download("7", F.forest, .failed, written: 400)]))
        let fake = FakeStore(FakeStore.Script(purchases: [F.forest: .purchased(bought)]), downloads: downloads)
        var state = F.loaded()
        state.modal = .confirm(productID: F.forest)
        let store = TestStore(state, store: fake)
        await store.send(.key(.enter)) {
            $0.flows[F.forest] = PurchaseFlow(productID: F.forest, phase: .contacting, hasDownloads: true, quantity: 1)
            $0.modal = .purchase(productID: F.forest)
            $0.animationInterval = 100
        }
        await store.receive(.purchasePhase(productID: F.forest, .authorizing)) {
            $0.flows[F.forest]?.phase = .authorizing
        }
        await store.receive(.purchasePhase(productID: F.forest, .verifying)) { $0.flows[F.forest]?.phase = .verifying }
        await store.receive(.purchaseNeedsDownload(productID: F.forest, downloadID: "7")) {
            $0.flows[F.forest]?.phase = .downloading
        }
        #expect(store.effects == [.followDownload(id: "7", productID: F.forest)])
        let failed = F.download("7", F.forest, .failed, written: 400)
        await store.receive(.purchaseDownloadSettled(productID: F.forest, failed)) {
            $0.downloads = [failed]
            F.report(
                "Bought Forest Pack, but its download failed at 40%: ? (space retries)", .error, in: &$0)
            $0.flows[F.forest] = nil
            $0.modal = nil
            $0.animationInterval = 500
        }
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        store.finish()
        #expect(downloads.calls == ["resume 7", "waitUntilSettled 7"])
    }

    @Test func anAskToBuyPurchaseWaitsAndAnInterruptedOneSaysSo() async {
        for interrupted in [false, true] {
            let deferred = F.transaction("3", F.coins, .consumable, state: .deferred)
            var waiting = deferred
            if interrupted { waiting.error = .interrupted }
            let fake = FakeStore(FakeStore.Script(purchases: [F.coins: .pending(deferred)], pending: [waiting]))
            let store = TestStore(F.loaded(), store: fake)
            await buyCoins(store)
            await store.receive(.purchasePhase(productID: F.coins, .authorizing)) {
                $0.flows[F.coins]?.phase = .authorizing
            }
            await store.receive(
                .purchaseFinished(productID: F.coins, .success(interrupted ? .interrupted : .pending))
            ) {
                F.report(
                    interrupted
                        ? "100 Coins was interrupted: resolve it in the Transaction Manager (t, then i)"
                        : "100 Coins is waiting for approval (Ask to Buy)", .info, in: &$0)
                $0.flows[F.coins] = nil
                $0.modal = nil
                $0.animationInterval = 500
            }
            await store.receive(.purchasesLoaded(.success(PurchasesSnapshot(pending: [waiting])))) {
                $0.purchases = PurchasesSnapshot(pending: [waiting])
            }
            store.finish()
        }
    }

    @Test func aPromotionalOfferIsSignedBeforeThePurchaseAndARefusedSignatureBuysNothing() async {
        let bought = F.transaction("5", F.monthly, .autoRenewable)
        let fake = FakeStore(FakeStore.Script(purchases: [F.monthly: .purchased(bought)]))
        var state = F.loaded()
        state.modal = .confirm(productID: F.monthly, offer: 1)
        let store = TestStore(state, store: fake)
        await store.send(.key(.enter)) {
            $0.flows[F.monthly] = PurchaseFlow(productID: F.monthly, phase: .contacting, quantity: 1)
            $0.modal = .purchase(productID: F.monthly)
            $0.animationInterval = 100
        }
        #expect(store.effects.first == .purchase(productID: F.monthly, quantity: 1, offerID: "COMEBACK"))
        #expect(
            fake.calls == [
                "requestProduct \(F.monthly)", "signPromotionalOffer \(F.monthly) COMEBACK",
                "purchase \(F.monthly) ×1 offer COMEBACK",
            ])

        let refusing = FakeStore(
            FakeStore.Script(failing: ["signPromotionalOffer": .invalidOfferIdentifier("COMEBACK")]))
        var again = F.loaded()
        again.modal = .confirm(productID: F.monthly, offer: 1)
        let refused = TestStore(again, store: refusing)
        await refused.send(.key(.enter)) {
            $0.flows[F.monthly] = PurchaseFlow(productID: F.monthly, phase: .contacting, quantity: 1)
            $0.modal = .purchase(productID: F.monthly)
            $0.animationInterval = 100
        }
        await refused.receive(.purchasePhase(productID: F.monthly, .authorizing)) {
            $0.flows[F.monthly]?.phase = .authorizing
        }
        await refused.receive(
            .purchaseFinished(productID: F.monthly, .failure(.invalidOfferIdentifier("COMEBACK")))
        ) {
            F.report(
                "Purchase of Monthly failed: \(StoreError.invalidOfferIdentifier("COMEBACK").description)", .error,
                in: &$0)
            $0.flows[F.monthly] = nil
            $0.modal = nil
            $0.animationInterval = 500
        }
        await refused.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        refused.finish()
        #expect(!refusing.calls.contains { $0.hasPrefix("purchase ") }, "\(refusing.calls)")
    }

    @Test func aStoreThatCannotBeReachedFailsThePurchaseBeforeItIsMade() async {
        let fake = FakeStore(FakeStore.Script(failing: ["requestProduct": .networkError("offline")]))
        let store = TestStore(F.loaded(), store: fake)
        await buyCoins(store)
        await store.receive(.purchaseFinished(productID: F.coins, .failure(.networkError("offline")))) {
            F.report("Purchase of 100 Coins failed: The store could not be reached: offline", .error, in: &$0)
            $0.flows[F.coins] = nil
            $0.modal = nil
            $0.animationInterval = 500
        }
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        store.finish()
        #expect(fake.calls.filter { $0.hasPrefix("purchase") }.isEmpty)
    }

    @Test func anOfferCodeIsRedeemedAsAPurchaseAndAProductWithoutOneSaysSo() async {
        let redeemed = F.transaction("9", F.monthly, .autoRenewable)
        let fake = FakeStore(
            FakeStore.Script(purchases: [F.monthly: .purchased(redeemed)], offerCodes: [F.monthly: "SPRING"]))
        var state = F.loaded()
        state.selectedRow = state.listing.rows.firstIndex(of: .product(2)) ?? 0
        let store = TestStore(state, store: fake)
        await store.send(.key(.character("c"))) {
            $0.flows[F.monthly] = PurchaseFlow(productID: F.monthly, phase: .contacting, quantity: 1)
            $0.modal = .purchase(productID: F.monthly)
            $0.animationInterval = 100
        }
        #expect(store.effects.first == .redeemOfferCode(productID: F.monthly))
        #expect(fake.calls == ["offerCode \(F.monthly)", "requestProduct \(F.monthly)", "redeem SPRING"])

        let none = FakeStore()
        let noCode = TestStore(state, store: none)
        await noCode.send(.key(.character("c"))) {
            $0.flows[F.monthly] = PurchaseFlow(productID: F.monthly, phase: .contacting, quantity: 1)
            $0.modal = .purchase(productID: F.monthly)
            $0.animationInterval = 100
        }
        let error = StoreError.invalidOfferIdentifier("\(F.monthly) has no code offer")
        await noCode.receive(.purchaseFinished(productID: F.monthly, .failure(error))) {
            F.report("Purchase of Monthly failed: \(error.description)", .error, in: &$0)
            $0.flows[F.monthly] = nil
            $0.modal = nil
            $0.animationInterval = 500
        }
        await noCode.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        noCode.finish()
        #expect(
            none.calls == ["offerCode \(F.monthly)", "history", "balances", "entitlements", "pending", "subscriptions"])
    }
}
