import Foundation
import Synchronization

@testable import StoreCore

/// Records every observer call it receives, in order, as short strings.
final class RecordingObserver: StoreObserver {
    private let calls = Mutex<[String]>([])
    var log: [String] { calls.withLock { $0 } }

    private func note(_ s: String) { calls.withLock { $0.append(s) } }

    func storeProductsRequestFinished(_ response: ProductsResponse) { note("products:\(response.products.count)") }
    func storeProductsRequestFailed(_ error: StoreError) { note("productsFailed") }
    func storePaymentTransactionFinished(_ t: Transaction) { note("finished:\(t.transactionID)") }
    func storePaymentTransactionFailed(_ t: Transaction, error: StoreError) { note("failed:\(t.transactionID)") }
    func storePaymentTransactionDeferred(_ t: Transaction) { note("deferred:\(t.transactionID)") }
    func storePaymentTransactionUnverified(_ order: UnverifiedOrder) {
        note("unverified:\(order.transaction.transactionID)")
    }
    func storeRestoreTransactionsFinished(_ ts: [Transaction]) { note("restored:\(ts.count)") }
    func storeRestoreTransactionsFailed(_ error: StoreError) { note("restoreFailed") }
    func storeRefreshReceiptFinished(_ receipt: Data) { note("receipt") }
    func storeTransactionRevoked(_ t: Transaction) { note("revoked:\(t.transactionID)") }
    func storeDownloadUpdated(_ d: Download) { note("downloadUpdated:\(d.state)") }
    func storeDownloadFinished(_ d: Download) { note("download:\(d.transactionID)") }
    func storeDownloadFailed(_ d: Download) { note("downloadFailed:\(d.transactionID)") }
    func storeDownloadPaused(_ d: Download) { note("downloadPaused:\(d.transactionID)") }
    func storeDownloadCanceled(_ d: Download) { note("downloadCanceled:\(d.transactionID)") }
    func storeSubscriptionStatusChanged(_ status: SubscriptionStatus) {
        note("status:\(status.groupID):\(status.state.rawValue)")
    }
}
