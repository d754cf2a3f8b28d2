import Foundation
import StoreCore
import StorefrontEffects
import StorefrontUI
import Testing

/// What the storefront loads and the changes answered with a load, against a fake store.
struct StoreLoadsTests {
    typealias F = Fixtures

    /// What the account has, from the store's answers: the history newest first, owned
    /// non-consumables, each subscription's latest expiry, order IDs of purchases only.
    @Test func thePurchasesSnapshotIsMadeFromTheStoresAnswers() async {
        let older = F.transaction("1", F.forest, .nonConsumable, purchased: F.start)
        let newer = F.transaction("2", F.monthly, .autoRenewable, purchased: F.start.addingTimeInterval(60))
        let restored = F.transaction(
            "3", F.forest, .nonConsumable, state: .restored, purchased: F.start.addingTimeInterval(30))
        let soon = F.start.addingTimeInterval(3600)
        let later = F.start.addingTimeInterval(7200)
        func entitlement(_ id: String, _ productID: String, _ type: ProductType, _ expires: Date?) -> Entitlement {
            Entitlement(
                productID: productID, productType: type, transactionID: id, originalTransactionID: id,
                purchaseDate: F.start, expiresDate: expires, state: nil, subscriptionGroupID: nil)
        }
        let fake = FakeStore(
            FakeStore.Script(
                history: [older, newer, restored], balances: [F.coins: 3],
                entitlements: [
                    entitlement("1", F.forest, .nonConsumable, nil), entitlement("2", F.monthly, .autoRenewable, soon),
                    entitlement("4", F.monthly, .autoRenewable, later), entitlement("5", F.coins, .consumable, nil),
                ]))
        let sent = Sent()
        await StorefrontEffects(store: fake).perform(.loadPurchases, send: sent.append)
        #expect(
            sent.actions == [
                .purchasesLoaded(
                    .success(
                        PurchasesSnapshot(
                            transactions: [newer, restored, older], balances: [F.coins: 3], owned: [F.forest],
                            activeUntil: [F.monthly: later], orderIDs: ["1": "ORDER-1", "2": "ORDER-2"])))
            ])
        #expect(fake.calls.last == "subscriptions 2,3,1", "the subscriptions name their latest in the sorted history")
    }

    @Test func aFailedLoadSaysWhyAndLoadsNothingMore() async {
        let fake = FakeStore(
            FakeStore.Script(failing: [
                "balances": .persistenceFailed(.io(path: "/data/vault.sfv", reason: "the vault is locked"))
            ]))
        let sent = Sent()
        await StorefrontEffects(store: fake).perform(.loadPurchases, send: sent.append)
        #expect(
            sent.actions == [
                .purchasesLoaded(
                    .failure(.persistenceFailed(.io(path: "/data/vault.sfv", reason: "the vault is locked"))))
            ])
        #expect(fake.calls == ["history", "balances"])
    }

    /// A storefront switch is remembered for the next launch and answered with the new context
    /// and its products together; a refused one remembers nothing.
    @Test func aStorefrontSwitchIsRememberedAndAnsweredWithItsProducts() async {
        var japan = F.context
        japan.storefront = "JPN"
        japan.locale = "ja_JP"
        let refusal = StoreError.systemError("no such storefront")
        for refused in [false, true] {
            let fake = FakeStore(
                FakeStore.Script(
                    context: F.context, products: F.products, failing: refused ? ["setStorefront": refusal] : [:]))
            var state = F.loaded()
            state.modal = .storefronts
            state.context?.storefronts = [Storefront(code: "JPN", name: "Japan", currencyCode: "JPY", locale: "ja_JP")]
            state.context?.locales = ["ja_JP"]
            let store = TestStore(state, store: fake)
            await store.send(.key(.enter)) {
                $0.modal = nil
                $0.storefronts.switchingTo = "JPN"
                $0.message = StatusMessage("Switching to JPN…", shownAt: F.start)
                $0.animationInterval = 500
            }
            #expect(store.effects.first == .setStorefront(code: "JPN", locale: "ja_JP"))
            #expect(fake.script.withLock { $0.remembered } == (refused ? [] : ["JPN ja_JP"]))
            if refused {
                await store.receive(.storefrontSwitched(.failure(refusal))) {
                    $0.storefronts.switchingTo = nil
                    F.report("Error: The store failed: no such storefront", .error, in: &$0)
                }
            } else {
                store.exhaustivity = .off
                let switched = StorefrontSwitch(context: japan, products: F.products)
                await store.receive(.storefrontSwitched(.success(switched))) {
                    $0.storefronts.switchingTo = nil
                    $0.context = japan
                    $0.catalog.products = F.products
                }
            }
            store.finish()
        }
    }

    /// A setting changed in Store Settings comes back with every setting; a refusal reloads
    /// them, so the window shows the value the store kept.
    @Test func aSettingChangeAnswersWithTheSettingsAndARefusalReloadsThem() async {
        let off = SettingRow(name: "ask-to-buy", label: "Ask to Buy", value: "off", choices: ["on", "off"])
        var on = off
        on.value = "on"
        let fake = FakeStore(FakeStore.Script(settings: [off]))
        var state = F.loaded()
        state.settings.rows = [off]
        state.modal = .settings
        state.settings.selected = 0
        let store = TestStore(state, store: fake)
        await store.send(.key(.enter)) { $0.settings.rows = [on] }
        #expect(store.effects == [.setSetting(name: "ask-to-buy", value: "on")])
        await store.receive(.settings(.changed(name: "ask-to-buy", value: "on", .success([on])))) {
            F.report("Setting Ask to Buy changed to On", .success, in: &$0)
            $0.animationInterval = 500
        }
        store.finish()

        let refusal = StoreError.systemError("ask-to-buy is locked")
        let refusing = FakeStore(FakeStore.Script(settings: [off], failing: ["setSetting": refusal]))
        let refused = TestStore(state, store: refusing)
        await refused.send(.key(.enter)) { $0.settings.rows = [on] }
        await refused.receive(.settings(.changed(name: "ask-to-buy", value: "on", .failure(refusal)))) {
            F.report("Error: The store failed: ask-to-buy is locked", .error, in: &$0)
            $0.animationInterval = 500
        }
        #expect(refused.effects.first == .loadSettings)
        await refused.receive(.settings(.loaded(.success([off])))) { $0.settings.rows = [off] }
        refused.finish()
    }

    @Test func theViewerShowsTheDecodedDocumentOrWhyThereIsNone() async {
        let document = TextDocument(title: "Transaction", subject: "5", lines: [TextDocument.Line("productID: x")])
        let fake = FakeStore(FakeStore.Script(document: document))
        let sent = Sent()
        await StorefrontEffects(store: fake).perform(.loadTransaction(transactionID: "5"), send: sent.append)
        #expect(sent.actions == [.receipt(.loaded(.success(document)))])
        #expect(fake.calls == ["transactionDocument 5"])

        let none = FakeStore(FakeStore.Script(failing: ["receiptDocument": .systemError("no app receipt yet")]))
        let sentToo = Sent()
        await StorefrontEffects(store: none).perform(.loadReceipt, send: sentToo.append)
        #expect(sentToo.actions == [.receipt(.loaded(.failure(.systemError("no app receipt yet"))))])
    }
}
