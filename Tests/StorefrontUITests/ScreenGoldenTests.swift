import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

@Suite struct ScreenGoldenTests {
    /// A state with something in every pane: owned items, a balance, a subscription, a
    /// download under way, a message.
    static func busy(width: Int, height: Int, japanese: Bool) -> State {
        var state = Fixtures.loaded(width: width, height: height, japanese: japanese)
        let snapshot = PurchasesSnapshot(
            transactions: [], balances: ["com.storefront.demo.coins.100": 3], owned: ["com.storefront.demo.pro"],
            activeUntil: ["com.storefront.demo.premium.monthly": Fixtures.start.addingTimeInterval(30 * 86_400)])
        _ = reduce(state: &state, action: .purchasesLoaded(.success(snapshot)))
        let download = Download(
            id: "1000004", transactionID: "1000004", productID: "com.storefront.demo.levels.forest",
            contentVersion: "1.0",
            state: .active, bytesWritten: 2_600_000, totalBytes: 4_000_000, bytesPerSecond: 1_000_000)
        _ = reduce(state: &state, action: .storeEvent(.downloadUpdated(download)))
        _ = reduce(state: &state, action: .key(.down))
        return state
    }

    @Test(arguments: [(80, 24), (120, 40)], [false, true])
    func productList(size: (Int, Int), japanese: Bool) throws {
        let state = Self.busy(width: size.0, height: size.1, japanese: japanese)
        let name = "list-\(size.0)x\(size.1)-\(japanese ? "ja_JP" : "en_US")"
        let screen = render(state)
        try GoldenScreen.check(screen, named: name)
        // CJK width: every row is exactly as wide as the terminal.
        for line in screen.lines { #expect(DisplayWidth.of(line) == size.0) }
    }

    @Test(arguments: [false, true])
    func confirmationSheet(japanese: Bool) throws {
        var state = Fixtures.loaded(japanese: japanese)
        _ = reduce(state: &state, action: .key(.enter))
        try GoldenScreen.check(render(state), named: "confirm-80x24-\(japanese ? "ja_JP" : "en_US")")
    }

    @Test func purchaseInProgress() throws {
        var state = Fixtures.loaded()
        _ = reduce(state: &state, action: .key(.enter))
        _ = reduce(state: &state, action: .key(.enter))
        _ = reduce(state: &state, action: .buySheet(.phase(productID: "com.storefront.demo.coins.100", .authorizing)))
        try GoldenScreen.check(render(state), named: "purchase-80x24-en_US")
    }

    @Test func help() throws {
        var state = Fixtures.loaded(width: 80, height: 24)
        _ = reduce(state: &state, action: .key(.character("?")))
        try GoldenScreen.check(render(state), named: "help-80x24-en_US")
    }

    @Test func menu() throws {
        var state = Fixtures.loaded(japanese: true)
        _ = reduce(state: &state, action: .key(.character("m")))
        try GoldenScreen.check(render(state), named: "menu-80x24-ja_JP")
    }

    /// The Transaction Manager on a subscription in its grace period, above a purchase.
    @Test(arguments: [false, true])
    func transactionManager(japanese: Bool) throws {
        let subscription = TransactionManagerSubscriptionTests.subscription(
            phase: .gracePeriod(until: Fixtures.start.addingTimeInterval(20 * 60)), billingIssue: true)
        let state = TransactionManagerSubscriptionTests.managing(subscription, japanese: japanese)
        let screen = render(state)
        try GoldenScreen.check(screen, named: "transactions-80x24-\(japanese ? "ja_JP" : "en_US")")
        for line in screen.lines { #expect(DisplayWidth.of(line) == 80) }
    }

    /// My Purchases' cancel sheet over its Subscriptions tab: the realtime answer's message with
    /// its image and bullet point in words, and the choices a switch-plan answer allows.
    @Test(arguments: [false, true])
    func cancelSheet(japanese: Bool) throws {
        var state = Self.busy(width: 80, height: 24, japanese: japanese)
        let monthly = "com.storefront.demo.premium.monthly"
        _ = reduce(state: &state, action: .myPurchases(.open))
        _ = reduce(state: &state, action: .key(.backTab))
        _ = reduce(state: &state, action: .key(.character("c")))
        let sheet = RetentionSheet(
            requestIdentifier: UUID(), originalTransactionID: "1000001", productID: monthly, shown: .message,
            message: RetentionSheet.Message(
                header: "Before you go", body: "A year of Premium costs less than ten months.",
                image: "A calendar with two free months circled — 3840×1080 PNG", headerAboveImage: false,
                bulletPoints: [RetentionSheet.BulletPoint(text: "Every level, every month", icon: "A star")]),
            alternateProductID: "com.storefront.demo.premium.yearly", offer: nil, fallbackReason: nil)
        _ = reduce(state: &state, action: .cancelSheet(.asked(.success(sheet))))
        let screen = render(state)
        try GoldenScreen.check(screen, named: "cancel-80x24-\(japanese ? "ja_JP" : "en_US")")
        for line in screen.lines { #expect(DisplayWidth.of(line) == 80) }
    }

    @Test func tooSmall() throws {
        let state = Fixtures.loaded(width: 40, height: 10)
        try GoldenScreen.check(render(state), named: "too-small-40x10-en_US")
    }
}
