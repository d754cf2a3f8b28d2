import Foundation
import LocalAppStore
import StoreCore

// The app's data directory: the purchase vault, the local store's state, downloaded content.
let data = FileManager.default.temporaryDirectory.appendingPathComponent("MyAppData-\(UUID().uuidString)")
let catalog = try StoreKitConfiguration.load(contentsOf: URL(fileURLWithPath: "Catalogs/Demo.storekit"))
let appStore = try LocalAppStore(
    configuration: LocalAppStoreConfiguration(
        catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
        initialLatencyMilliseconds: 0))  // a local store needs no pretend network delay
let store = Store(
    backend: appStore, ledger: try VaultLedger.open(inDataDirectory: data, environment: [:]),
    configuration: StoreConfiguration(
        verifier: try await appStore.receiptVerifier(),  // every purchase checked against the signed receipt
        downloads: DownloadConfiguration(dataDirectory: data)))  // hosted content downloads after a purchase

// Listen before starting: renewals, expiries, refunds, approvals, and what an earlier run
// left unfinished arrive here (a purchase's own result goes to its caller).
_ = Task { for await transaction in store.transactionUpdates() { print("update:", transaction.productID) } }
await store.start()

let coins = "com.storefront.demo.coins.100"
let stickers = "com.storefront.demo.stickers.cats"
for product in try await store.requestProducts([coins, stickers]).products {
    print(product.displayName, product.displayPrice)
}

switch await store.purchase(coins) {
case .purchased(let transaction): print("delivered", transaction.productID)
case .pending: print("waiting for approval (Ask to Buy)")
case .unverified(let order): print("charged; verified again at the next start:", order.lastFailure)
case .cancelled, .taskCancelled: print("cancelled")
case .failed(let error, _): print("failed:", error)
}

// Returns once the content is installed in DATA/Content/PRODUCT_ID/VERSION/.
let stickerPack = await store.purchase(stickers, options: PurchaseOptions(waitsForContent: true))
let installed = await store.downloads?.installedContent(productID: stickers)
print(stickerPack.state, installed.map { $0.pathComponents.suffix(3).joined(separator: "/") } ?? "no content")

print("coins:", try await store.count(of: coins))
print("entitlements:", try await store.currentEntitlements().map(\.productID))  // StoreKit 2's currentEntitlements
print("trial:", try await store.isEligibleForIntroOffer(groupID: "49EF0713"))  // Storefront Premium
print("restored:", try await store.restoreTransactions().map(\.productID))
await store.stop()
try FileManager.default.removeItem(at: data)
