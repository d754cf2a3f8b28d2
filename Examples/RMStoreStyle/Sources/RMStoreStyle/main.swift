// StoreCore in the style of RMStore and DEStoreKitManager: closures, observers and
// NotificationCenter notifications, a persistor's answers, and the app receipt's helpers.
// It imports the two products an app names, StoreCore and LocalAppStore, and nothing else.
import Foundation
import LocalAppStore
import StoreCore

/// Hears every event of the store, as an `RMStoreObserver` does.
final class StoreLog: StoreObserver {
    func storeProductsRequestFinished(_ response: ProductsResponse) {
        print("observer: \(response.products.count) products, \(response.invalidProductIdentifiers.count) invalid")
    }
    func storePaymentTransactionFinished(_ transaction: Transaction) {
        print("observer: finished \(transaction.productID)")
    }
    func storeDownloadFinished(_ download: Download) {
        print("observer: content of \(download.productID) installed")
    }
    func storeRestoreTransactionsFinished(_ transactions: [Transaction]) {
        print("observer: restored \(transactions.count)")
    }
}

/// Told of one purchase only (DEStoreKitManager's per-request delegate).
final class OnePurchase: StoreObserver {
    func storePaymentTransactionFinished(_ transaction: Transaction) {
        print("this purchase's observer: finished \(transaction.productID)")
    }
    func storePaymentTransactionUnverified(_ order: UnverifiedOrder) {
        print("this purchase's observer: charged, not verified: \(order.lastFailure)")
    }
}

/// A verifier whose server is down: verification cannot complete (RMStore's error 200).
struct UnreachableServer: PurchaseVerifier {
    var needsReceipt: Bool { false }
    func verify(_ transaction: Transaction, receipt: Data?) async -> VerificationOutcome {
        .unableToComplete(reason: "the receipt server is unreachable")
    }
}

/// Waits for a closure-style call to report back.
func waitFor(_ start: (@escaping @Sendable () -> Void) -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in start { done.resume() } }
}

let data = FileManager.default.temporaryDirectory.appendingPathComponent("RMStoreStyle-\(UUID().uuidString)")
let catalog = try StoreKitConfiguration.load(contentsOf: URL(fileURLWithPath: "Catalogs/Demo.storekit"))
let appStore = try LocalAppStore(
    configuration: LocalAppStoreConfiguration(
        catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
        initialLatencyMilliseconds: 0))
let notifications = NotificationCenter()
let store = Store(
    backend: appStore, ledger: try VaultLedger.open(inDataDirectory: data, environment: [:]),
    configuration: StoreConfiguration(
        notificationCenter: notifications, downloads: DownloadConfiguration(dataDirectory: data)))
let log = StoreLog()
store.addObserver(log)
let observers = [
    notifications.addObserver(forName: .storePaymentTransactionFinished, object: nil, queue: nil) { note in
        print("notification: finished \(note.storeProductID ?? "?") (transaction \(note.storeTransactionID ?? "?"))")
    },
    notifications.addObserver(forName: .storeDownloadFinished, object: nil, queue: nil) { note in
        let carried = note.storeTransaction?.transactionID == note.storeTransactionID ? "carried" : "missing"
        print(
            "notification: content of \(note.storeProductID ?? "?") installed (transaction \(note.storeTransactionID ?? "?"), \(carried))"
        )
    },
]
await store.start()

let lifetime = "com.storefront.demo.lifetime"
let stickers = "com.storefront.demo.stickers.cats"
let coins = "com.storefront.demo.coins.100"

// requestProducts:success:failure:
await waitFor { done in
    store.requestProducts(
        [lifetime, stickers, "com.example.nope"],
        success: { response in
            for product in response.products { print("product: \(product.id) \(product.displayPrice)") }
            print("invalid: \(response.invalidProductIdentifiers)")
            done()
        },
        failure: { error in
            print("products failed: \(error)")
            done()
        })
}

// addPayment:success:failure:, with this purchase's own observer, returning once the content is in.
await waitFor { done in
    store.purchase(
        stickers, options: PurchaseOptions(waitsForContent: true, observer: OnePurchase()),
        success: { transaction in
            print("success: \(transaction.productID)")
            done()
        },
        failure: { _, error in
            print("failure: \(error)")
            done()
        })
}

// A purchase with its own verifier, whose server is down: charged, kept, never a failure.
await waitFor { done in
    let options = PurchaseOptions(
        applicationUsername: ApplicationUsername.hash("ada@example.com"),
        verifier: UnreachableServer(), observer: OnePurchase())
    store.purchase(
        lifetime, options: options,
        success: { _ in
            print("unexpected success")
            done()
        },
        failure: { _, error in
            print("failure: \(error)")
            done()
        },
        unverified: { order in
            print("unverified: \(order.transaction.productID) after \(order.attempts) attempt")
            done()
        })
}
let orders = try await store.unverifiedOrders()
print("unverified orders: \(orders.map(\.transaction.productID))")
for order in orders {
    print("retry: \(try await store.retryUnverifiedOrder(transactionID: order.transaction.transactionID).state)")
    try await store.removeUnverifiedOrder(transactionID: order.transaction.transactionID)  // finished at the store
}
print("unverified orders left: \(try await store.unverifiedOrders().count)")
print("unfinished at the store: \(try await store.unfinishedTransactions().count)")

// The persistor's answers.
_ = await store.purchase(coins, quantity: 3)
print(
    "purchased stickers: \(try await store.isPurchased(stickers)), lifetime: \(try await store.isPurchased(lifetime))")
print("coins: \(try await store.count(of: coins)), after consuming 2: \(try await store.consume(coins, quantity: 2))")
print("transactions of stickers: \(try await store.transactions(for: stickers).count)")

// The app receipt, verified against the store's root, asked RMAppReceipt's questions.
let receiptVerifier = try await appStore.receiptVerifier()
await waitFor { done in
    store.refreshReceipt(
        success: { receipt in
            if case .success(let decoded) = receiptVerifier.validate(receipt) {
                print(
                    "receipt: \(decoded.bundleID) holds stickers: \(decoded.containsInAppPurchase(ofProductID: stickers)), "
                        + "lifetime: \(decoded.containsInAppPurchase(ofProductID: lifetime))")
            }
            done()
        },
        failure: { error in
            print("refresh failed: \(error)")
            done()
        })
}

// restoreTransactionsOnSuccess:failure:. The store still knows the lifetime unlock was paid
// for (its unverified order was only given up by the app), so a restore delivers it.
await waitFor { done in
    store.restoreTransactions(
        success: { transactions in
            print("restored: \(transactions.map(\.productID))")
            done()
        },
        failure: { error in
            print("restore failed: \(error)")
            done()
        })
}

try await store.removeAllTransactions()
print("after removing every transaction: stickers purchased: \(try await store.isPurchased(stickers))")
observers.forEach(notifications.removeObserver)
await store.stop()
try FileManager.default.removeItem(at: data)
