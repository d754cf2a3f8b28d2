import StoreCore
import StorefrontUI
import Testing

/// Buying, driven through the reducer and the effects against a fake store: each step the
/// sheet shows arrives as an action, and the store is asked what a purchase asks of it.
struct PurchasingTests {
    typealias F = Fixtures

    /// A store on the loaded storefront with the confirmation sheet open on `productID`.
    private static func confirming(_ productID: String, offer: Int = 0, _ fake: FakeStore) -> TestStore {
        var state = F.loaded()
        state.modal = .confirm
        state.buySheet.confirmation = BuySheetFeature.Confirmation(productID: productID, offer: offer)
        return TestStore(state, store: fake)
    }

    /// The sheet's Enter: the purchase starts at its first step and the sheet follows it.
    private static func buy(_ productID: String, hasDownloads: Bool = false, _ store: TestStore) async {
        await store.send(.key(.enter)) {
            $0.buySheet.flows[productID] = PurchaseFlow(
                productID: productID, phase: .contacting, hasDownloads: hasDownloads, quantity: 1)
            $0.buySheet.watching = productID
            $0.modal = .purchase
            $0.animationInterval = 100
        }
    }

    @Test func aPurchaseWithoutContentTicksEveryStepThenLoadsWhatTheAccountHas() async {
        let bought = F.transaction("1", F.coins, .consumable)
        let fake = FakeStore(
            FakeStore.Script(purchases: [F.coins: .purchased(bought)], history: [bought], balances: [F.coins: 1]))
        let store = TestStore(F.loaded(), store: fake)
        await store.send(.key(.enter)) {
            $0.modal = .confirm
            $0.buySheet.confirmation = BuySheetFeature.Confirmation(productID: F.coins)
        }
        await Self.buy(F.coins, store)
        #expect(
            store.effects == [
                .purchase(productID: F.coins, quantity: 1, offerID: nil), .every(.milliseconds(100), .tick),
            ])
        await store.receive(.buySheet(.phase(productID: F.coins, .authorizing))) {
            $0.buySheet.flows[F.coins]?.phase = .authorizing
        }
        await store.receive(.buySheet(.phase(productID: F.coins, .verifying))) {
            $0.buySheet.flows[F.coins]?.phase = .verifying
        }
        await store.receive(.buySheet(.phase(productID: F.coins, .done))) {
            $0.buySheet.flows[F.coins]?.phase = .done
            $0.animationInterval = nil
        }
        await store.receive(.buySheet(.finished(productID: F.coins, .success(.purchased(transactionID: "1"))))) {
            $0.buySheet.flows[F.coins]?.finishedAt = F.start
            F.report("Purchased 100 Coins", .success, in: &$0)
            $0.animationInterval = 500
        }
        #expect(store.effects == [.loadPurchases, .every(.milliseconds(500), .tick)])
        let snapshot = PurchasesSnapshot(transactions: [bought], balances: [F.coins: 1], orderIDs: ["1": "ORDER-1"])
        await store.receive(.purchasesLoaded(.success(snapshot))) { $0.purchases = snapshot }
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
        let store = Self.confirming(F.forest, fake)
        await Self.buy(F.forest, hasDownloads: true, store)
        await store.receive(.buySheet(.phase(productID: F.forest, .authorizing))) {
            $0.buySheet.flows[F.forest]?.phase = .authorizing
        }
        await store.receive(.buySheet(.phase(productID: F.forest, .verifying))) {
            $0.buySheet.flows[F.forest]?.phase = .verifying
        }
        await store.receive(.buySheet(.needsDownload(productID: F.forest, downloadID: "7"))) {
            $0.buySheet.flows[F.forest]?.phase = .downloading
        }
        #expect(store.effects == [.followDownload(id: "7", productID: F.forest)])
        let failed = F.download("7", F.forest, .failed, written: 400)
        await store.receive(.buySheet(.downloadSettled(productID: F.forest, failed))) {
            $0.downloads.items = [failed]
            F.report("Bought Forest Pack, but its download failed at 40%: ? (space retries)", .error, in: &$0)
            $0.buySheet.flows[F.forest] = nil
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
            let store = Self.confirming(F.coins, fake)
            await Self.buy(F.coins, store)
            await store.receive(.buySheet(.phase(productID: F.coins, .authorizing))) {
                $0.buySheet.flows[F.coins]?.phase = .authorizing
            }
            let text =
                interrupted
                ? "100 Coins was interrupted: resolve it in the Transaction Manager (t, then i)"
                : "100 Coins is waiting for approval (Ask to Buy)"
            await Self.ended(F.coins, .success(interrupted ? .interrupted : .pending), text, .info, store)
            let snapshot = PurchasesSnapshot(pending: [waiting])
            await store.receive(.purchasesLoaded(.success(snapshot))) { $0.purchases = snapshot }
            store.finish()
        }
    }

    /// A purchase ended short of its last step: its sheet closes and the status line says how.
    private static func ended(
        _ productID: String, _ result: Result<PurchaseOutcome, StoreError>, _ text: String,
        _ kind: StatusMessage.Kind, _ store: TestStore
    ) async {
        await store.receive(.buySheet(.finished(productID: productID, result))) {
            F.report(text, kind, in: &$0)
            $0.buySheet.flows[productID] = nil
            $0.modal = nil
            $0.animationInterval = 500
        }
    }

    @Test func aPromotionalOfferIsSignedBeforeThePurchase() async {
        let bought = F.transaction("5", F.monthly, .autoRenewable)
        let fake = FakeStore(FakeStore.Script(purchases: [F.monthly: .purchased(bought)]))
        let store = Self.confirming(F.monthly, offer: 1, fake)
        await Self.buy(F.monthly, store)
        #expect(store.effects.first == .purchase(productID: F.monthly, quantity: 1, offerID: "COMEBACK"))
        #expect(
            fake.calls == [
                "requestProduct \(F.monthly)", "signPromotionalOffer \(F.monthly) COMEBACK",
                "purchase \(F.monthly) ×1 offer COMEBACK",
            ])
    }

    @Test func aRefusedSignatureBuysNothing() async {
        let refusal = StoreError.invalidOfferIdentifier("COMEBACK")
        let fake = FakeStore(FakeStore.Script(failing: ["signPromotionalOffer": refusal]))
        let store = Self.confirming(F.monthly, offer: 1, fake)
        await Self.buy(F.monthly, store)
        await store.receive(.buySheet(.phase(productID: F.monthly, .authorizing))) {
            $0.buySheet.flows[F.monthly]?.phase = .authorizing
        }
        await Self.ended(
            F.monthly, .failure(refusal), "Purchase of Monthly failed: \(refusal.description)", .error, store)
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        store.finish()
        #expect(!fake.calls.contains { $0.hasPrefix("purchase ") }, "\(fake.calls)")
    }

    @Test func aStoreThatCannotBeReachedFailsThePurchaseBeforeItIsMade() async {
        let fake = FakeStore(FakeStore.Script(failing: ["requestProduct": .networkError("offline")]))
        let store = Self.confirming(F.coins, fake)
        await Self.buy(F.coins, store)
        await Self.ended(
            F.coins, .failure(.networkError("offline")),
            "Purchase of 100 Coins failed: The store could not be reached: offline", .error, store)
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        store.finish()
        #expect(fake.calls.filter { $0.hasPrefix("purchase") }.isEmpty)
    }

    /// `c` on a subscription redeems an offer code as a purchase; one without a code says so.
    @Test func anOfferCodeIsRedeemedAsAPurchaseAndAProductWithoutOneSaysSo() async {
        let redeemed = F.transaction("9", F.monthly, .autoRenewable)
        var state = F.loaded()
        state.catalog.selectedRow = state.catalog.listing.rows.firstIndex(of: .product(2)) ?? 0
        for code in ["SPRING", nil] {
            let fake = FakeStore(
                FakeStore.Script(
                    purchases: [F.monthly: .purchased(redeemed)], offerCodes: code.map { [F.monthly: $0] } ?? [:]))
            let store = TestStore(state, store: fake)
            await store.send(.key(.character("c"))) {
                $0.buySheet.flows[F.monthly] = PurchaseFlow(productID: F.monthly, phase: .contacting, quantity: 1)
                $0.buySheet.watching = F.monthly
                $0.modal = .purchase
                $0.animationInterval = 100
            }
            #expect(store.effects.first == .redeemOfferCode(productID: F.monthly))
            guard code == nil else {
                #expect(fake.calls == ["offerCode \(F.monthly)", "requestProduct \(F.monthly)", "redeem SPRING"])
                continue
            }
            let error = StoreError.invalidOfferIdentifier("\(F.monthly) has no code offer")
            await Self.ended(
                F.monthly, .failure(error), "Purchase of Monthly failed: \(error.description)", .error, store)
            await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
            store.finish()
            #expect(
                fake.calls == [
                    "offerCode \(F.monthly)", "history", "balances", "entitlements", "pending", "subscriptions",
                ])
        }
    }
}
