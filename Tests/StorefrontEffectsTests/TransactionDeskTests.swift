import Foundation
import StoreCore
import StorefrontEffects
import StorefrontUI
import Testing

/// The Transaction Manager's keys, run against a fake store: each command is asked of the
/// store, the engine then hears what it changed, and the answer reloads the window's rows.
struct TransactionDeskTests {
    typealias F = Fixtures

    /// The Transaction Manager open on an Ask to Buy purchase waiting for approval.
    private static func managing(_ fake: FakeStore) -> TestStore {
        let deferred = F.transaction("11", F.coins, .consumable, state: .deferred)
        var state = F.loaded()
        state.purchases = PurchasesSnapshot(transactions: [], pending: [deferred])
        state.modal = .transactions
        state.transactionManager.selected = 0
        return TestStore(state, store: fake)
    }

    @Test func anApprovalIsMadeHeardAndReported() async {
        let approved = F.transaction("11", F.coins, .consumable)
        let fake = FakeStore(FakeStore.Script(history: [approved], balances: [F.coins: 1]))
        let store = Self.managing(fake)
        await store.send(.key(.character("a")))
        #expect(store.effects == [.transactionCommand(.approve, transactionID: "11")])
        #expect(fake.calls == ["transactionCommand approve 11", "synchronize"])
        await store.receive(.transactionManager(.commandFinished(.approve, .success("11")))) {
            F.report("Approved transaction 11", .success, in: &$0)
            $0.animationInterval = 500
        }
        let snapshot = PurchasesSnapshot(transactions: [approved], balances: [F.coins: 1], orderIDs: ["11": "ORDER-11"])
        await store.receive(.purchasesLoaded(.success(snapshot))) { $0.purchases = snapshot }
        store.finish()
    }

    @Test func aRefusedCommandShowsTheStoresAnswerAndChangesNothing() async {
        let refusal = StoreError.systemError("transaction 11 is not deferred")
        let fake = FakeStore(FakeStore.Script(failing: ["transactionCommand": refusal]))
        let store = Self.managing(fake)
        await store.send(.key(.character("d")))
        await store.receive(.transactionManager(.commandFinished(.decline, .failure(refusal)))) {
            F.report("Error: The store failed: transaction 11 is not deferred", .error, in: &$0)
            $0.animationInterval = 500
        }
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot()))) { $0.purchases = PurchasesSnapshot() }
        store.finish()
        #expect(fake.calls.first == "transactionCommand decline 11")
        #expect(!fake.calls.contains("synchronize"), "nothing changed, so there is nothing to hear")
    }

    /// The customer's refund request is the app's own call: the engine hears its answer by
    /// itself, so nothing is synchronized for it.
    @Test func theCustomersRefundRequestIsNotSynchronized() async {
        let fake = FakeStore()
        let effects = StorefrontEffects(store: fake)
        let sent = Sent()
        await effects.perform(.transactionCommand(.requestRefund, transactionID: "5"), send: sent.append)
        #expect(sent.actions == [.transactionManager(.commandFinished(.requestRefund, .success("5")))])
        #expect(fake.calls == ["transactionCommand requestRefund 5"])
    }

    @Test func aSubscriptionCommandAnswersWithTheSubscriptionAsItIsAfterwards() async {
        let renewal = F.transaction("23", F.monthly, .autoRenewable, originalID: "22")
        let until = F.start.addingTimeInterval(3600)
        let renewed = ManagedSubscription(
            originalTransactionID: "22", latestTransactionID: "23", productID: F.monthly,
            phase: .active(until: until), willAutoRenew: true, hasBillingIssue: false)
        let fake = FakeStore(FakeStore.Script(subscriptions: [renewed], latestAfterCommand: renewal))
        let effects = StorefrontEffects(store: fake)
        let sent = Sent()
        await effects.perform(.subscriptionCommand(.renew, transactionID: "22"), send: sent.append)
        #expect(sent.actions == [.transactionManager(.subscriptionCommandFinished(.renew, .success(renewed)))])
        #expect(fake.calls == ["subscriptionCommand renew 22", "synchronize", "subscriptions 23"])

        // A store that knows no such subscription answers with no transaction.
        let unknown = FakeStore()
        let sentToo = Sent()
        await StorefrontEffects(store: unknown).perform(
            .subscriptionCommand(.expire, transactionID: "99"), send: sentToo.append)
        #expect(
            sentToo.actions == [
                .transactionManager(.subscriptionCommandFinished(.expire, .failure(.unknownTransaction("99"))))
            ])
    }

    @Test func consumingAnswersWithTheNewBalance() async {
        let fake = FakeStore(FakeStore.Script(consumedBalance: 2))
        let sent = Sent()
        await StorefrontEffects(store: fake).perform(.consume(productID: F.coins, quantity: 1), send: sent.append)
        #expect(sent.actions == [.myPurchases(.consumed(productID: F.coins, .success(2)))])
        #expect(fake.calls == ["consume \(F.coins) ×1"])
    }
}
