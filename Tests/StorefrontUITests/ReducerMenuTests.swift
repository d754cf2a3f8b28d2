import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

@Suite struct ReducerMenuTests {
    @Test func everyMenuItemHasAKeyThatRunsIt() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("r"))) == [.restore])
        #expect(state.menu.isRestoring)
        #expect(send(&state, .key(.character("r"))) == [])  // one restore at a time
        var s2 = Fixtures.loaded()
        #expect(send(&s2, .key(.character("e"))) == [.refreshReceipt])
        #expect(send(&s2, .key(.character("o"))) == [.loadSettings])
        #expect(s2.modal == .settings && s2.settings.selected == 0)
        var s3 = Fixtures.loaded()
        #expect(send(&s3, .key(.character("t"))) == [.loadPurchases])
        #expect(s3.modal == .transactions && s3.transactionManager.selected == 0)
        var s4 = Fixtures.loaded()
        #expect(send(&s4, .key(.character("p"))) == [.loadPurchases])
        #expect(s4.modal == .purchases && s4.myPurchases.tab == 0 && s4.myPurchases.selected == 0)
        var s5 = Fixtures.loaded()
        send(&s5, .key(.character("s")))
        #expect(s5.modal == .storefronts && s5.storefronts.storefront == 0 && s5.storefronts.locale == 0)
    }

    @Test func menuNavigatesAndRunsWithEnter() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("m")))
        #expect(state.modal == .menu && state.menu.selected == 0)
        #expect(send(&state, .key(.enter)) == [.restore])
        send(&state, .key(.character("m")), .key(.up))
        #expect(state.modal == .menu && state.menu.selected == MenuItem.allCases.count - 1)
        #expect(send(&state, .key(.enter)) == [.quit])
    }

    @Test func restoreReportsItsCountAndReloads() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("r")))
        let restored = [Fixtures.transaction("5", pro, .nonConsumable, state: .restored)]
        #expect(send(&state, .menu(.restoreFinished(.success(restored)))) == [.loadPurchases])
        #expect(!state.menu.isRestoring)
        #expect(state.message?.text == "Restored 1 purchase")
        send(&state, .key(.character("r")))
        send(&state, .menu(.restoreFinished(.failure(.networkError("down")))))
        #expect(state.message?.kind == .error)
    }

    @Test func receiptRefreshReportsItsSize() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("e")), .menu(.receiptRefreshed(.success(2048))))
        #expect(state.message?.text == "Receipt refreshed (2 KB)")
    }

    @Test func storefrontSwitchPicksTheStorefrontsLanguageAndReloads() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("s")), .key(.down), .key(.down))
        #expect(
            state.modal == .storefronts && state.storefronts.storefront == 2 && state.storefronts.locale == 2
                && state.storefronts.column == 0)
        #expect(send(&state, .key(.enter)) == [.setStorefront(code: "JPN", locale: "ja_JP")])
        let effects = send(
            &state,
            .storefrontSwitched(
                .success(
                    StorefrontSwitch(
                        context: Fixtures.context(japanese: true), products: Fixtures.products(japanese: true)))))
        #expect(effects == [])
        #expect(state.strings.language == .japanese)
        #expect(render(state).lines.contains { $0.contains("¥160") && $0.contains("コイン100枚") })
    }

    @Test func storefrontPickerJumpsByFirstLetterAndShowsTheChoice() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("s")), .key(.character("J")))
        #expect(
            state.modal == .storefronts && state.storefronts.storefront == 2 && state.storefronts.locale == 2
                && state.storefronts.column == 0)
        #expect(render(state).lines.contains { $0.contains("→ JPN · ja_JP") })
        send(&state, .key(.character("Z")))  // no code starts with Z: nothing moves
        #expect(
            state.modal == .storefronts && state.storefronts.storefront == 2 && state.storefronts.locale == 2
                && state.storefronts.column == 0)
    }

    @Test func storefrontPickerCanChooseAnotherLanguage() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("s")), .key(.tab), .key(.down))
        #expect(send(&state, .key(.enter)) == [.setStorefront(code: "USA", locale: "zh_CN")])
    }

    @Test func settingsCycleValues() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("o")))
        let settings = [
            SettingRow(name: "ask-to-buy", label: "Ask to Buy", value: "off", choices: ["on", "off"]),
            SettingRow(name: "latency", label: "Latency (ms)", value: "0", choices: ["0", "250", "1000"]),
        ]
        send(&state, .settings(.loaded(.success(settings))))
        #expect(send(&state, .key(.enter)) == [.setSetting(name: "ask-to-buy", value: "on")])
        send(&state, .key(.down))
        #expect(send(&state, .key(.left)) == [.setSetting(name: "latency", value: "1000")])
        // A second press before the store answers cycles on from the value shown.
        #expect(send(&state, .key(.left)) == [.setSetting(name: "latency", value: "250")])
        #expect(state.settings.rows[1].value == "250")
        var changed = settings
        changed[0].value = "on"
        send(&state, .settings(.changed(name: "ask-to-buy", value: "on", .success(changed))))
        #expect(state.settings.rows[0].value == "on")
        #expect(state.message?.text == "Setting Ask to Buy changed to On")
        // A refusal says why and reloads the settings as the store has them.
        #expect(
            send(&state, .settings(.changed(name: "latency", value: "x", .failure(.unknown("bad value"))))) == [
                .loadSettings
            ])
        #expect(state.message?.kind == .error)
    }

    @Test func transactionManagerApprovesDeclinesRefundsResolves() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("t")))
        let deferred = Fixtures.transaction("11", coins, .consumable, state: .deferred)
        let bought = Fixtures.transaction("12", pro, .nonConsumable)
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [bought], pending: [deferred]))))
        #expect(TransactionManagerFeature.rows(state.purchases).map(\.transactionID) == ["11", "12"])
        #expect(send(&state, .key(.character("a"))) == [.transactionCommand(.approve, transactionID: "11")])
        #expect(send(&state, .key(.character("d"))) == [.transactionCommand(.decline, transactionID: "11")])
        #expect(send(&state, .key(.character("i"))) == [.transactionCommand(.resolve, transactionID: "11")])
        send(&state, .key(.down))
        #expect(send(&state, .key(.character("f"))) == [])
        #expect(send(&state, .key(.character("y"))) == [.transactionCommand(.refund, transactionID: "12")])
        let effects = send(&state, .transactionManager(.commandFinished(.approve, .success("11"))))
        #expect(effects == [.loadPurchases])
        #expect(state.message?.text == "Approved transaction 11")
    }

    @Test func myPurchasesConsumesFromBalances() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("p")))
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(balances: [coins: 3]))))
        #expect(send(&state, .key(.character("c"))) == [])  // history tab: nothing to consume
        send(&state, .key(.tab))
        #expect(state.modal == .purchases && state.myPurchases.tab == 1 && state.myPurchases.selected == 0)
        #expect(send(&state, .key(.character("c"))) == [.consume(productID: coins, quantity: 1)])
        send(&state, .myPurchases(.consumed(productID: coins, .success(2))))
        #expect(state.message?.text == "Used 1 × 100 Coins: 2 left")
    }

    @Test func statusColumnShowsOwnershipBalanceAndSubscription() {
        var state = Fixtures.loaded(width: 120, height: 40)
        let until = Fixtures.start.addingTimeInterval(40 * 86_400)
        send(
            &state,
            .purchasesLoaded(
                .success(
                    PurchasesSnapshot(
                        balances: [coins: 4], owned: [pro], activeUntil: ["com.storefront.demo.premium.monthly": until])
                )))
        let lines = render(state).lines
        #expect(lines.contains { $0.contains("100 Coins") && $0.contains("Balance 4") })
        #expect(lines.contains { $0.contains("Pro Unlock") && $0.contains("Owned") })
        #expect(lines.contains { $0.contains("Premium Monthly") && $0.contains("Active until 2026-02-10") })
    }

    @Test func storeEventsGoToTheLog() {
        var state = Fixtures.loaded()
        let t = Fixtures.transaction("21", coins, .consumable)
        #expect(send(&state, .storeEvent(.paymentFinished(t))) == [.loadPurchases])
        #expect(state.eventLog.entries.last?.text == "21 \(coins) ×1 purchased")
        send(&state, .storeEvent(.paymentFailed(t, .systemError("boom"))))
        #expect(state.message?.kind == .error)  // no purchase of ours was waiting: say it anyway
        for i in 0..<(EventLogFeature.limit + 10) {
            send(&state, .storeEvent(.paymentDeferred(Fixtures.transaction("\(i)", coins, .consumable))))
        }
        #expect(state.eventLog.entries.count == EventLogFeature.limit)
    }
}
