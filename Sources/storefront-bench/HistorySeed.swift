import Catalog
import Foundation
import LocalAppStore
import StoreCore
import Vault

/// A long purchase history for the Demo catalog, written straight into a data directory
/// through the libraries (the store's journal without fsync, the vault ledger in one write),
/// so a benchmark can time CLI commands after 100,000 purchases without making them one by one.
///
/// The mix is what a long-lived account gathers: each non-consumable once, one auto-renewable
/// subscription renewed for a tenth of the history (on a fast store clock; its last period
/// runs into the future, so it is active), and consumables for the rest.
enum HistorySeed {
    static let nonConsumables = [
        "com.storefront.demo.levelpack.forest", "com.storefront.demo.stickers.cats",
        "com.storefront.demo.sounds.synthwave",
        "com.storefront.demo.removeads", "com.storefront.demo.theme.midnight", "com.storefront.demo.lifetime",
    ]
    static let consumables = [
        "com.storefront.demo.coins.100", "com.storefront.demo.coins.550", "com.storefront.demo.hints.5",
    ]
    static let subscription = "com.storefront.demo.premium.basic.monthly"
    static let subscriptionGroup = "49EF0713"

    /// `count` transactions, oldest first, ending at `now` (IDs are placeholders: the store
    /// gives them its own).
    static func transactions(count: Int, now: Date) -> [Transaction] {
        let renewals = count / 10
        let start = now.addingTimeInterval(-Double(count) * 30)
        var result: [Transaction] = []
        result.reserveCapacity(count)
        var renewal = 0
        var firstRenewal = ""
        for index in 0..<count {
            let date = start.addingTimeInterval(Double(index) * 30)
            let id = "seed-\(index)"
            if index < nonConsumables.count {
                result.append(
                    Transaction(
                        transactionID: id, productID: nonConsumables[index], productType: .nonConsumable,
                        payment: Payment(productID: nonConsumables[index]), state: .purchased, purchaseDate: date,
                        price: Decimal(string: "2.99"), currencyCode: "USD", storefront: "USA"))
            } else if renewal < renewals, index % 10 == 7 {
                // One period of 30 seconds × 10 (the store's accelerated clock) per renewal; the
                // last one ends after `now`.
                let expires = renewal == renewals - 1 ? now.addingTimeInterval(86_400) : date.addingTimeInterval(300)
                if renewal == 0 { firstRenewal = id }
                result.append(
                    Transaction(
                        transactionID: id, originalTransactionID: firstRenewal,
                        productID: subscription, productType: .autoRenewable, payment: Payment(productID: subscription),
                        state: .purchased, purchaseDate: date, expiresDate: expires,
                        webOrderLineItemID: String(1_000_000 + renewal * 10 + 1), price: Decimal(string: "4.99"),
                        currencyCode: "USD", storefront: "USA", subscriptionGroupID: subscriptionGroup))
                renewal += 1
            } else {
                let product = consumables[index % consumables.count]
                result.append(
                    Transaction(
                        transactionID: id, productID: product, productType: .consumable,
                        payment: Payment(productID: product),
                        state: .purchased, purchaseDate: date, price: Decimal(string: "0.99"), currencyCode: "USD",
                        storefront: "USA"))
            }
        }
        return result
    }

    /// Writes `count` transactions into `dataDirectory` (created): the store's compacted
    /// history (`importHistory`, fsync off, latency 0) and the vault ledger (`vault.sfv` with
    /// its key file, one durable write), as if the engine had delivered and finished each one.
    /// - Parameter signing: whether the ledger's transactions carry their JWS, as the engine's
    ///   do (signing is most of a seed's time: leave it out only where the ledger's items are
    ///   not read, as `buy` does not read them).
    static func seed(
        count: Int, catalog: StoreKitConfiguration, in dataDirectory: URL, signing: Bool = true
    ) async throws {
        let store = try BenchStore.seeding(catalog, in: dataDirectory)
        let imported = try await store.transactionManager.importHistory(
            transactions(count: count, now: Date()), signing: signing)
        let ledger = try VaultLedger.open(inDataDirectory: dataDirectory, environment: [:])
        try ledger.recordAll(imported)
    }
}
