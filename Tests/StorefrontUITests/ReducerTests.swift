import Foundation
import StoreCore
import Testing
@testable import StorefrontUI

private let coins = "com.storefront.demo.coins.100"
private let forest = "com.storefront.demo.levels.forest"
private let pro = "com.storefront.demo.pro"

/// Sends actions in order and returns the work they produced, leaving out the animation's
/// schedule (`.every(_, .tick)`, `.cancel(.animation)`), which `EffectScheduleTests` assert.
@discardableResult
func send(_ state: inout State, _ actions: Action...) -> [Effect] {
    actions.flatMap { reduce(state: &state, action: $0) }.filter { $0.id != .animation && $0 != .cancel(.animation) }
}

private func keys(_ state: inout State, _ text: String) -> [Effect] {
    text.flatMap { reduce(state: &state, action: .key(.character($0))) }
}

@Suite struct ReducerStartupTests {
    @Test func startLoadsEverything() {
        var state = State()
        #expect(send(&state, .started) == [
            .observeStore, .loadContext, .loadProducts, .loadPurchases, .loadSettings, .loadServer,
            .every(.seconds(2), .lookForChanges),
        ])
    }

    @Test func productsAreGroupedAndTheFirstProductIsSelected() {
        let state = Fixtures.loaded()
        #expect(state.listing.rows.first == .header("Consumables"))
        #expect(state.selectedProduct?.id == coins)
        let headers = state.listing.rows.compactMap { if case .header(let h) = $0 { h } else { nil } }
        #expect(headers == ["Consumables", "Non-Consumables", "Premium", "Non-Renewing Subscriptions"])
    }

    @Test func groupingToggleShowsSubscriptionsByType() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("g")))
        let headers = state.listing.rows.compactMap { if case .header(let h) = $0 { h } else { nil } }
        #expect(headers.contains("Subscriptions"))
        #expect(!headers.contains("Premium"))
    }

    @Test func subscriptionsInAGroupAreOrderedByLevel() {
        let state = Fixtures.loaded()
        let names = state.listing.rows.compactMap { row -> String? in
            guard case .product(let i) = row else { return nil }
            return state.products?[i].displayName
        }
        #expect(names.firstIndex(of: "Premium Yearly")! < names.firstIndex(of: "Premium Monthly")!)
    }

    @Test func loadFailureIsAMessageNotACrash() {
        var state = State()
        send(&state, .productsLoaded(.failure(.networkError("offline"))))
        #expect(state.products == [])
        #expect(state.message?.kind == .error)
        #expect(state.log.last?.isError == true)
    }

    @Test func japaneseLocaleSwitchesTheInterfaceLanguage() {
        let state = Fixtures.loaded(japanese: true)
        #expect(state.strings.language == .japanese)
        #expect(state.listing.rows.first == .header("消耗型アイテム"))
    }
}

@Suite struct ReducerNavigationTests {
    @Test func movingSkipsHeadingsAndStopsAtTheEnds() {
        var state = Fixtures.loaded()
        send(&state, .key(.up))
        #expect(state.selectedProduct?.id == coins)
        send(&state, .key(.down), .key(.down))
        #expect(state.selectedProduct?.id == forest)
        send(&state, .key(.end))
        #expect(state.selectedProduct?.id == "com.storefront.demo.seasonpass")
        send(&state, .key(.down))
        #expect(state.selectedProduct?.id == "com.storefront.demo.seasonpass")
        send(&state, .key(.home))
        #expect(state.selectedProduct?.id == coins)
    }

    @Test func scrollingKeepsTheSelectionVisible() {
        var state = Fixtures.loaded(width: 80, height: 16)
        let visible = Layout(state: state).listRows
        send(&state, .key(.end))
        #expect(state.selectedRow >= state.scrollTop)
        #expect(state.selectedRow < state.scrollTop + visible)
        send(&state, .key(.home))
        #expect(state.scrollTop == 0)
    }

    @Test func filterNarrowsAsYouTypeAndEscapeClears() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("/")))
        #expect(state.isFiltering)
        _ = keys(&state, "coin")
        let products = state.listing.rows.filter { if case .product = $0 { true } else { false } }
        #expect(products.count == 2)
        send(&state, .key(.backspace))
        #expect(state.filter == "coi")
        send(&state, .key(.escape))
        #expect(!state.isFiltering)
        #expect(state.filter.isEmpty)
        #expect(state.listing.rows.count == Fixtures.loaded().listing.rows.count)
    }

    @Test func filterWithNoMatchShowsAMessage() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("/")))
        _ = keys(&state, "zzz")
        #expect(state.listing.rows.isEmpty)
        #expect(state.selectedProduct == nil)
        #expect(render(state).lines.contains { $0.contains("No products match “zzz”") })
        // Enter on an empty list opens nothing.
        send(&state, .key(.enter), .key(.enter))
        #expect(state.modal == nil)
    }

    @Test func filterMatchesJapaneseNames() {
        var state = Fixtures.loaded(japanese: true)
        send(&state, .key(.character("/")))
        _ = keys(&state, "コイン")
        #expect(state.listing.rows.filter { if case .product = $0 { true } else { false } }.count == 2)
    }

    @Test func resizeBelowTheMinimumShowsAMessageAndOnlyQuitWorks() {
        var state = Fixtures.loaded()
        send(&state, .resize(width: 50, height: 12))
        #expect(!state.fitsMinimumSize)
        #expect(send(&state, .key(.character("m"))) == [])
        #expect(state.modal == nil)
        #expect(render(state).lines.joined().contains("Terminal too small"))
        #expect(send(&state, .key(.character("q"))) == [.quit])
    }

    @Test func logToggleAndHelp() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("l")))
        #expect(state.showsLog)
        send(&state, .key(.character("?")))
        #expect(state.modal == .help())
        send(&state, .key(.escape))
        #expect(state.modal == nil)
    }

    @Test func quitFromTheListAndCtrlCFromAnywhere() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("q"))) == [.quit])
        var other = Fixtures.loaded()
        send(&other, .key(.character("m")))
        #expect(send(&other, .key(.control("c"))) == [.quit])
        #expect(other.isQuitting)
    }
}

@Suite struct ReducerPurchaseTests {
    @Test func enterConfirmsThenBuys() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.enter)) == [])
        #expect(state.modal == .confirm(productID: coins))
        #expect(send(&state, .key(.enter)) == [.purchase(productID: coins, quantity: 1)])
        #expect(state.modal == .purchase(productID: coins))
        #expect(state.flows[coins]?.phase == .contacting)
        #expect(state.tickInterval == 100)
    }

    @Test func escapeCancelsTheConfirmation() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter))
        #expect(send(&state, .key(.escape)) == [])
        #expect(state.modal == nil)
        #expect(state.flows.isEmpty)
    }

    @Test func phasesOnlyMoveForwardAndSuccessShowsAMessage() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter), .key(.enter))
        send(&state, .purchasePhase(productID: coins, .verifying), .purchasePhase(productID: coins, .authorizing))
        #expect(state.flows[coins]?.phase == .verifying)
        let effects = send(&state, .purchaseFinished(productID: coins, .success(.purchased(transactionID: "1000001"))))
        #expect(effects == [.loadPurchases])
        // Done: the sheet shows every step ticked until it closes (PurchaseProgressTests).
        #expect(state.modal == .purchase(productID: coins))
        #expect(state.flows[coins]?.phase == .done)
        #expect(state.message == StatusMessage("Purchased 100 Coins", kind: .success, shownAt: Fixtures.start))
        #expect(state.log.last?.text == "Purchased 100 Coins")
    }

    @Test func askToBuyShowsWaitingForApproval() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter), .key(.enter))
        send(&state, .purchaseFinished(productID: coins, .success(.pending)))
        #expect(state.message?.text == "100 Coins is waiting for approval (Ask to Buy)")
        var deferred = Fixtures.transaction("1000002", coins, .consumable, state: .deferred)
        deferred.error = nil
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(pending: [deferred]))))
        #expect(render(state).lines.contains { $0.contains("100 Coins") && $0.contains("Waiting for approval") })
    }

    @Test func failureIsANonBlockingError() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter), .key(.enter))
        send(&state, .purchaseFinished(productID: coins, .failure(.paymentNotAllowed)))
        #expect(state.modal == nil)
        #expect(state.message?.kind == .error)
        #expect(state.message?.text == "Purchase of 100 Coins failed: Payments are not allowed on this device or account.")
        // The list still takes keys.
        send(&state, .key(.down))
        #expect(state.selectedProduct?.id == "com.storefront.demo.coins.500")
    }

    @Test func ownedNonConsumableIsNotBoughtAgain() {
        var state = Fixtures.loaded()
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(owned: [pro]))))
        send(&state, .key(.down), .key(.down), .key(.down))
        #expect(state.selectedProduct?.id == pro)
        send(&state, .key(.enter))
        #expect(state.modal == nil)
        #expect(state.message?.text.contains("already own") == true)
    }

    @Test func purchaseWithContentShowsTheDownloadingStep() {
        var state = Fixtures.loaded()
        send(&state, .key(.down), .key(.down))
        send(&state, .key(.enter), .key(.enter))
        #expect(state.flows[forest]?.phases.contains(.downloading) == true)
        let download = Download(id: "7", transactionID: "7", productID: forest, contentVersion: "1", state: .active,
                                bytesWritten: 50, totalBytes: 100)
        send(&state, .storeEvent(.downloadUpdated(download)))
        #expect(state.flows[forest]?.phase == .downloading)
        #expect(state.downloads.count == 1)
    }

    @Test func messagesFadeOnTheInjectedClock() {
        var state = Fixtures.loaded()
        send(&state, .purchaseFinished(productID: coins, .success(.cancelled)))
        #expect(state.message != nil)
        send(&state, .tick(Fixtures.start.addingTimeInterval(1)))
        #expect(state.message != nil)
        send(&state, .tick(Fixtures.start.addingTimeInterval(5)))
        #expect(state.message == nil)
        #expect(state.tickInterval == nil)
    }
}

@Suite struct ReducerDownloadTests {
    private func withDownload(_ phase: DownloadState) -> State {
        var state = Fixtures.loaded()
        let download = Download(id: "9", transactionID: "9", productID: forest, contentVersion: "1", state: phase,
                                bytesWritten: 10, totalBytes: 100, bytesPerSecond: 5)
        send(&state, .storeEvent(.downloadUpdated(download)))
        return state
    }

    @Test func spacePausesAndResumesAndXCancels() {
        var active = withDownload(.active)
        #expect(send(&active, .key(.character(" "))) == [.pauseDownload(id: "9")])
        #expect(send(&active, .key(.character("x"))) == [])
        #expect(send(&active, .key(.character("y"))) == [.cancelDownload(id: "9")])
        var paused = withDownload(.paused)
        #expect(send(&paused, .key(.character(" "))) == [.resumeDownload(id: "9")])
    }

    @Test func downloadRowShowsPercentBytesRateAndTimeLeft() {
        let state = withDownload(.active)
        let text = render(state).lines.joined(separator: "\n")
        #expect(text.contains("10%"))
        #expect(text.contains("10 B/100 B"))
        #expect(text.contains("5 B/s"))
        #expect(text.contains("18s left"))
    }

    @Test func finishedDownloadLeavesThePaneAndSaysSo() {
        var state = withDownload(.active)
        let done = Download(id: "9", transactionID: "9", productID: forest, contentVersion: "1", state: .finished,
                            bytesWritten: 100, totalBytes: 100)
        #expect(send(&state, .storeEvent(.downloadFinished(done))) == [.loadPurchases])
        #expect(!Layout(state: state).downloads.isEmpty, "its last frame, at 100 %, stays a moment")
        send(&state, .tick(Fixtures.start.addingTimeInterval(State.settledLifetime + 1)))
        #expect(Layout(state: state).downloads.isEmpty)
        #expect(state.message?.text == "Download of Forest Level Pack finished")
    }
}

@Suite struct ReducerMenuTests {
    @Test func everyMenuItemHasAKeyThatRunsIt() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("r"))) == [.restore])
        #expect(state.isRestoring)
        #expect(send(&state, .key(.character("r"))) == [])  // one restore at a time
        var s2 = Fixtures.loaded()
        #expect(send(&s2, .key(.character("e"))) == [.refreshReceipt])
        #expect(send(&s2, .key(.character("o"))) == [.loadSettings])
        #expect(s2.modal == .settings(selected: 0))
        var s3 = Fixtures.loaded()
        #expect(send(&s3, .key(.character("t"))) == [.loadPurchases])
        #expect(s3.modal == .transactions(selected: 0))
        var s4 = Fixtures.loaded()
        #expect(send(&s4, .key(.character("p"))) == [.loadPurchases])
        #expect(s4.modal == .purchases(tab: 0, selected: 0))
        var s5 = Fixtures.loaded()
        send(&s5, .key(.character("s")))
        #expect(s5.modal == .storefronts(storefront: 0, locale: 0, column: 0))
    }

    @Test func menuNavigatesAndRunsWithEnter() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("m")))
        #expect(state.modal == .menu(selected: 0))
        #expect(send(&state, .key(.enter)) == [.restore])
        send(&state, .key(.character("m")), .key(.up))
        #expect(state.modal == .menu(selected: MenuItem.allCases.count - 1))
        #expect(send(&state, .key(.enter)) == [.quit])
    }

    @Test func restoreReportsItsCountAndReloads() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("r")))
        let restored = [Fixtures.transaction("5", pro, .nonConsumable, state: .restored)]
        #expect(send(&state, .restoreFinished(.success(restored))) == [.loadPurchases])
        #expect(!state.isRestoring)
        #expect(state.message?.text == "Restored 1 purchases")
        send(&state, .key(.character("r")))
        send(&state, .restoreFinished(.failure(.networkError("down"))))
        #expect(state.message?.kind == .error)
    }

    @Test func receiptRefreshReportsItsSize() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("e")), .receiptRefreshed(.success(2048)))
        #expect(state.message?.text == "Receipt refreshed (2 KB)")
    }

    @Test func storefrontSwitchPicksTheStorefrontsLanguageAndReloads() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("s")), .key(.down), .key(.down))
        #expect(state.modal == .storefronts(storefront: 2, locale: 2, column: 0))
        #expect(send(&state, .key(.enter)) == [.setStorefront(code: "JPN", locale: "ja_JP")])
        let effects = send(&state, .storefrontSwitched(.success(StorefrontSwitch(
            context: Fixtures.context(japanese: true), products: Fixtures.products(japanese: true)))))
        #expect(effects == [])
        #expect(state.strings.language == .japanese)
        #expect(render(state).lines.contains { $0.contains("¥160") && $0.contains("コイン100枚") })
    }

    @Test func storefrontPickerJumpsByFirstLetterAndShowsTheChoice() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("s")), .key(.character("J")))
        #expect(state.modal == .storefronts(storefront: 2, locale: 2, column: 0))
        #expect(render(state).lines.contains { $0.contains("→ JPN · ja_JP") })
        send(&state, .key(.character("Z")))  // no code starts with Z: nothing moves
        #expect(state.modal == .storefronts(storefront: 2, locale: 2, column: 0))
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
        send(&state, .settingsLoaded(.success(settings)))
        #expect(send(&state, .key(.enter)) == [.setSetting(name: "ask-to-buy", value: "on")])
        send(&state, .key(.down))
        #expect(send(&state, .key(.left)) == [.setSetting(name: "latency", value: "1000")])
        // A second press before the store answers cycles on from the value shown.
        #expect(send(&state, .key(.left)) == [.setSetting(name: "latency", value: "250")])
        #expect(state.settings[1].value == "250")
        var changed = settings
        changed[0].value = "on"
        send(&state, .settingChanged(name: "ask-to-buy", value: "on", .success(changed)))
        #expect(state.settings[0].value == "on")
        #expect(state.message?.text == "Setting Ask to Buy changed to On")
        // A refusal says why and reloads the settings as the store has them.
        #expect(send(&state, .settingChanged(name: "latency", value: "x", .failure(.unknown("bad value")))) == [.loadSettings])
        #expect(state.message?.kind == .error)
    }

    @Test func transactionManagerApprovesDeclinesRefundsResolves() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("t")))
        let deferred = Fixtures.transaction("11", coins, .consumable, state: .deferred)
        let bought = Fixtures.transaction("12", pro, .nonConsumable)
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [bought], pending: [deferred]))))
        #expect(state.managedTransactions.map(\.transactionID) == ["11", "12"])
        #expect(send(&state, .key(.character("a"))) == [.approve(transactionID: "11")])
        #expect(send(&state, .key(.character("d"))) == [.decline(transactionID: "11")])
        #expect(send(&state, .key(.character("i"))) == [.resolve(transactionID: "11")])
        send(&state, .key(.down))
        #expect(send(&state, .key(.character("f"))) == [])
        #expect(send(&state, .key(.character("y"))) == [.refund(transactionID: "12")])
        let effects = send(&state, .transactionCommandFinished(.approve(transactionID: "11"), .success("11")))
        #expect(effects == [.loadPurchases])
        #expect(state.message?.text == "Approved transaction 11")
    }

    @Test func myPurchasesConsumesFromBalances() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("p")))
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(balances: [coins: 3]))))
        #expect(send(&state, .key(.character("c"))) == [])  // history tab: nothing to consume
        send(&state, .key(.tab))
        #expect(state.modal == .purchases(tab: 1, selected: 0))
        #expect(send(&state, .key(.character("c"))) == [.consume(productID: coins, quantity: 1)])
        send(&state, .consumed(productID: coins, .success(2)))
        #expect(state.message?.text == "Used 1 × 100 Coins: 2 left")
    }

    @Test func statusColumnShowsOwnershipBalanceAndSubscription() {
        var state = Fixtures.loaded(width: 120, height: 40)
        let until = Fixtures.start.addingTimeInterval(40 * 86_400)
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(
            balances: [coins: 4], owned: [pro], activeUntil: ["com.storefront.demo.premium.monthly": until]))))
        let lines = render(state).lines
        #expect(lines.contains { $0.contains("100 Coins") && $0.contains("Balance 4") })
        #expect(lines.contains { $0.contains("Pro Unlock") && $0.contains("Owned") })
        #expect(lines.contains { $0.contains("Premium Monthly") && $0.contains("Active until 2026-02-10") })
    }

    @Test func storeEventsGoToTheLog() {
        var state = Fixtures.loaded()
        let t = Fixtures.transaction("21", coins, .consumable)
        #expect(send(&state, .storeEvent(.paymentFinished(t))) == [.loadPurchases])
        #expect(state.log.last?.text == "21 \(coins) ×1 purchased")
        send(&state, .storeEvent(.paymentFailed(t, .systemError("boom"))))
        #expect(state.message?.kind == .error)  // no purchase of ours was waiting: say it anyway
        for i in 0..<(State.logLimit + 10) { send(&state, .storeEvent(.refreshReceiptFinished(Data(count: i)))) }
        #expect(state.log.count == State.logLimit)
    }
}

@Suite struct LocalizationTests {
    @Test(arguments: [UILanguage.japanese, .german, .french, .spanish, .arabic])
    func everyLanguageTranslatesTheSamePhrases(_ language: UILanguage) {
        let reference = Set(Strings.table(for: .simplifiedChinese).keys)
        let table = Set(Strings.table(for: language).keys)
        #expect(reference.subtracting(table).sorted() == [], "missing in \(language)")
        #expect(table.subtracting(reference).sorted() == [], "only in \(language)")
    }

    @Test func placeholdersAreFilledInOrder() {
        #expect(Strings(.english)("Storefront set to {} ({})", "JPN", "ja_JP") == "Storefront set to JPN (ja_JP)")
        #expect(Strings(.japanese)("Balance {}", "3") == "残高 3")
        #expect(Strings(.simplifiedChinese)("Balance {}", "3") == "余额 3")
    }

    @Test func localeChoosesTheLanguage() {
        #expect(UILanguage(locale: "ja_JP") == .japanese)
        #expect(UILanguage(locale: "zh_CN") == .simplifiedChinese)
        #expect(UILanguage(locale: "de_DE") == .german)
        #expect(UILanguage(locale: "pt_BR") == .english)
    }

    @Test func everyTranslatedPhraseHasItsPlaceholders() {
        for language in UILanguage.allCases {
            for (english, translated) in Strings.table(for: language) {
                #expect(english.components(separatedBy: "{}").count == translated.components(separatedBy: "{}").count,
                        "\(language): \(english)")
            }
        }
    }
}

@Suite struct TextLayoutTests {
    @Test func wrapBreaksAtSpacesAndBetweenCJKCharacters() {
        #expect(TextLayout.wrap("A chest of coins for big plans.", width: 12) == ["A chest of", "coins for", "big plans."])
        #expect(TextLayout.wrap("大きな計画のための宝箱", width: 8) == ["大きな計", "画のため", "の宝箱"])
        #expect(TextLayout.wrap("Supercalifragilistic", width: 8) == ["Supercal", "ifragili", "stic"])
    }

    @Test func truncateNeverSplitsAWideCharacter() {
        #expect(TextLayout.truncate("プレミアム（年額）", to: 7) == "プレミ…")
        #expect(TextLayout.truncate("Premium", to: 7) == "Premium")
        #expect(DisplayWidth.of(TextLayout.pad("森の", to: 5)) == 5)
    }
}
