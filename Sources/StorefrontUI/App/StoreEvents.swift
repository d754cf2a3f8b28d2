import Foundation
import StoreKitValues

/// Events from the engine: each to the screens it concerns (the downloads, the purchase sheet),
/// a line in the log, and a reload of what changed.
extension State {
    mutating func apply(_ event: StoreEvent) -> [Effect] {
        switch event {
        case .productsRequestFinished, .productsRequestFailed:
            // Answers to our own requests arrive as results too; the log is enough.
            if case .productsRequestFailed(let error) = event { record(describe(error), isError: true) }
            return []
        case .paymentFinished(let t):
            record(logLine("purchased", t))
            return update(.buySheet(.phase(productID: t.productID, .verifying))) + [.loadPurchases]
        case .paymentFailed(let t, let error):
            if error == .paymentCancelled, isWaitingForApproval(t.transactionID) {
                // Declined (here, or by another process: `store decline ID`): news, as an
                // approval is, though nothing failed.
                record(logLine("declined", t))
                show(strings("Ask to Buy: {} was declined", name(of: t.productID)))
                return [.loadPurchases]
            }
            record(logLine("failed", t) + " — " + describe(error), isError: true)
            if buySheet.flows[t.productID] == nil { fail(error) }
            return [.loadPurchases]
        case .paymentDeferred(let t):
            record(logLine("deferred", t))
            return [.loadPurchases]
        case .paymentUnverified(let order):
            record(logLine("unverified", order.transaction) + " — " + order.lastFailure, isError: true)
            return [.loadPurchases]
        case .restoreFinished, .restoreFailed, .refreshReceiptFinished, .refreshReceiptFailed:
            // Only the storefront restores and refreshes in this process: the effect's result
            // (`.menu(.restoreFinished)`, `.menu(.receiptRefreshed)`) reports the outcome and logs it, once.
            return []
        case .transactionRevoked(let t):
            record(logLine("revoked", t))
            return [.loadPurchases]
        case .subscriptionStatusChanged(let status):
            record("subscription \(status.groupID): \(status.state.rawValue)")
            return [.loadPurchases]
        case .downloadUpdated(let d):
            return downloaded(d, .updated(d))
        case .downloadPaused(let d):
            return downloaded(d, .paused(d))
        case .downloadCanceled(let d):
            return downloaded(d, .cancelled(d))
        case .downloadFinished(let d):
            return downloaded(d, .finished(d))
        case .downloadFailed(let d):
            return downloaded(d, .failed(d))
        case .storefrontChanged(let storefront):
            // StoreKit 2's `Storefront.updates`: news for the log.
            record(strings("Storefront is now {} (storefront ID {})", storefront.countryCode, storefront.id))
            return []
        case .refundRequestDecided(let decision):
            // The App Store's answer to a refund request the app made.
            let text =
                decision.isApproved
                ? strings("Refund of {} approved", name(of: decision.productID))
                : strings("Refund of {} declined", name(of: decision.productID))
            report(text, kind: decision.isApproved ? .success : .error)
            return [.loadPurchases]
        }
    }

    /// A download's news: the purchase sheet following it moves to its Downloading step, then
    /// the downloads screen takes it.
    private mutating func downloaded(_ download: Download, _ action: DownloadsFeature.Action) -> [Effect] {
        update(.buySheet(.downloadProgressed(download))) + update(.downloads(action))
    }

    /// Whether the transaction is an Ask to Buy purchase waiting for approval, as last loaded.
    private func isWaitingForApproval(_ transactionID: String) -> Bool {
        purchases.pending.contains {
            $0.transactionID == transactionID && $0.state == .deferred && $0.error != .interrupted
        }
    }

    private func logLine(_ what: String, _ t: Transaction) -> String {
        "\(t.transactionID) \(t.productID) ×\(t.quantity) \(what)"
    }
}
