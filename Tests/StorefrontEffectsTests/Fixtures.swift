import Foundation
import StoreCore
import StorefrontUI

/// The products and states the effects' tests start from.
enum Fixtures {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00 UTC
    static let coins = "com.example.coins"
    static let forest = "com.example.forest"
    static let monthly = "com.example.monthly"

    static let products: [Product] = [
        Product(
            id: coins, type: .consumable, displayName: "100 Coins", description: "Coins.", price: 0.99,
            displayPrice: "$0.99", currencyCode: "USD"),
        Product(
            id: forest, type: .nonConsumable, displayName: "Forest Pack", description: "Levels.", price: 2.99,
            displayPrice: "$2.99", currencyCode: "USD", hasDownloads: true),
        Product(
            id: monthly, type: .autoRenewable, displayName: "Monthly", description: "Everything.", price: 4.99,
            displayPrice: "$4.99", currencyCode: "USD",
            subscription: SubscriptionInfo(
                groupID: "G1", groupDisplayName: "Premium", groupLevel: 1,
                period: SubscriptionPeriod(value: 1, unit: .month), introductoryOffer: nil,
                promotionalOffers: [
                    SubscriptionOffer(
                        id: "COMEBACK", kind: .promotional, paymentMode: .payAsYouGo,
                        period: SubscriptionPeriod(value: 1, unit: .month), periodCount: 1, price: 1.99,
                        displayPrice: "$1.99")
                ])),
    ]

    static let context = StoreContext(storefront: "USA", locale: "en_US", account: "Local Tester")

    /// The storefront after start-up: the time, where it shops and the products.
    static func loaded() -> State {
        var state = State(width: 100, height: 30)
        _ = reduce(state: &state, action: .tick(start))
        _ = reduce(state: &state, action: .contextLoaded(.success(context)))
        _ = reduce(state: &state, action: .catalog(.productsLoaded(.success(products))))
        return state
    }

    static func transaction(
        _ id: String, _ productID: String, _ type: ProductType, state: TransactionState = .purchased,
        purchased: Date = start, originalID: String? = nil
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: originalID, productID: productID, productType: type,
            payment: Payment(productID: productID, requestID: "r\(id)"), state: state, purchaseDate: purchased)
    }

    static func download(_ id: String, _ productID: String, _ state: DownloadState, written: Int64 = 0) -> Download {
        Download(
            id: id, transactionID: id, productID: productID, contentVersion: "1.0", state: state,
            bytesWritten: written, totalBytes: 1000)
    }

    /// The state's message and log line after a report at the fixtures' time.
    static func report(_ text: String, _ kind: StatusMessage.Kind, in state: inout State) {
        state.message = StatusMessage(text, kind: kind, shownAt: start)
        state.eventLog.entries.append(LogEntry(time: start, text: text, isError: kind == .error))
    }
}
