import Foundation
import StoreCore

@testable import StorefrontUI

/// The fixture catalog's products the tests act on, named once for every suite.
let coins = "com.storefront.demo.coins.100"
let forest = "com.storefront.demo.levels.forest"
let pro = "com.storefront.demo.pro"
let monthly = "com.storefront.demo.premium.monthly"
let yearly = "com.storefront.demo.premium.yearly"

/// Products and states for the reducer and screen tests, in English and Japanese.
enum Fixtures {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00 UTC

    static func products(japanese: Bool = false) -> [Product] {
        func p(
            _ id: String, _ type: ProductType, _ en: String, _ ja: String, _ enDesc: String, _ jaDesc: String,
            usd: String, jpy: String, subscription: SubscriptionInfo? = nil, downloads: Bool = false
        ) -> Product {
            Product(
                id: id, type: type, displayName: japanese ? ja : en, description: japanese ? jaDesc : enDesc,
                price: Decimal(string: japanese ? jpy : usd) ?? 0,
                displayPrice: japanese ? "¥\(jpy)" : "$\(usd)", currencyCode: japanese ? "JPY" : "USD",
                subscription: subscription, hasDownloads: downloads)
        }
        func sub(_ level: Int, _ period: SubscriptionPeriod, intro: Bool) -> SubscriptionInfo {
            SubscriptionInfo(
                groupID: "21000001", groupDisplayName: japanese ? "プレミアム" : "Premium", groupLevel: level,
                period: period,
                introductoryOffer: intro
                    ? SubscriptionOffer(
                        id: nil, kind: .introductory, paymentMode: .freeTrial,
                        period: SubscriptionPeriod(value: 1, unit: .week), periodCount: 1, price: 0,
                        displayPrice: japanese ? "¥0" : "$0.00")
                    : nil,
                promotionalOffers: [])
        }
        return [
            p(
                coins, .consumable, "100 Coins", "コイン100枚", "A small pouch of coins.",
                "コインが入った小さな袋。", usd: "0.99", jpy: "160"),
            p(
                "com.storefront.demo.coins.500", .consumable, "500 Coins", "コイン500枚", "A chest of coins for big plans.",
                "大きな計画のためのコインの宝箱。", usd: "4.99", jpy: "800"),
            p(
                forest, .nonConsumable, "Forest Level Pack", "森のレベルパック",
                "Twelve new levels in an enchanted forest, with their own music.",
                "魔法の森の新しい12レベル。専用の音楽付き。", usd: "2.99", jpy: "480", downloads: true),
            p(
                pro, .nonConsumable, "Pro Unlock", "プロ版アンロック", "Removes limits and unlocks every tool.",
                "制限を解除し、すべてのツールを使えるようにします。", usd: "9.99", jpy: "1500"),
            p(
                monthly, .autoRenewable, "Premium Monthly", "プレミアム（月額）",
                "Everything, renewed every month.", "すべての機能を毎月更新で。", usd: "4.99", jpy: "800",
                subscription: sub(2, SubscriptionPeriod(value: 1, unit: .month), intro: true)),
            p(
                yearly, .autoRenewable, "Premium Yearly", "プレミアム（年額）",
                "Everything for a year, at a discount.", "1年分をお得に。", usd: "39.99", jpy: "6000",
                subscription: sub(1, SubscriptionPeriod(value: 1, unit: .year), intro: false)),
            p(
                "com.storefront.demo.seasonpass", .nonRenewing, "Season Pass", "シーズンパス",
                "Three months of events.", "3か月間のイベント。", usd: "7.99", jpy: "1200"),
        ]
    }

    static func context(japanese: Bool = false) -> StoreContext {
        StoreContext(
            storefront: japanese ? "JPN" : "USA", locale: japanese ? "ja_JP" : "en_US", account: "alice@example.com",
            storefronts: [
                Storefront(code: "USA", name: "United States", currencyCode: "USD", locale: "en_US"),
                Storefront(code: "CHN", name: "China mainland", currencyCode: "CNY", locale: "zh_CN"),
                Storefront(code: "JPN", name: "Japan", currencyCode: "JPY", locale: "ja_JP"),
            ],
            locales: ["en_US", "zh_CN", "ja_JP"])
    }

    /// A loaded state: context, products and a tick, as after start-up.
    static func loaded(width: Int = 80, height: Int = 24, japanese: Bool = false) -> State {
        var state = State(width: width, height: height)
        _ = reduce(state: &state, action: .tick(start))
        _ = reduce(state: &state, action: .contextLoaded(.success(context(japanese: japanese))))
        _ = reduce(state: &state, action: .catalog(.productsLoaded(.success(products(japanese: japanese)))))
        return state
    }

    static func transaction(
        _ id: String, _ productID: String, _ type: ProductType, state: TransactionState = .purchased
    ) -> Transaction {
        Transaction(
            transactionID: id, productID: productID, productType: type,
            payment: Payment(productID: productID, requestID: "r\(id)"),
            state: state, purchaseDate: start)
    }
}
