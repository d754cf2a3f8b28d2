import Foundation
import StoreCore

/// Events from the engine: the log, downloads, and a reload of what changed.
extension State {
    mutating func apply(_ event: StoreEvent) -> [Effect] {
        switch event {
        case .productsRequestFinished, .productsRequestFailed:
            // Answers to our own requests arrive as results too; the log is enough.
            if case .productsRequestFailed(let error) = event { record(describe(error), isError: true) }
            return []
        case .paymentFinished(let t):
            record(logLine("purchased", t))
            if var flow = flows[t.productID], flow.phase < .verifying {
                flow.phase = .verifying
                flows[t.productID] = flow
            }
            return [.loadPurchases]
        case .paymentFailed(let t, let error):
            if error == .paymentCancelled, isWaitingForApproval(t.transactionID) {
                // Declined (here, or by another process: `store decline ID`): news, as an
                // approval is, though nothing failed.
                record(logLine("declined", t))
                show(strings("Ask to Buy: {} was declined", name(of: t.productID)))
                return [.loadPurchases]
            }
            record(logLine("failed", t) + " — " + describe(error), isError: true)
            if flows[t.productID] == nil { fail(error) }
            return [.loadPurchases]
        case .paymentDeferred(let t):
            record(logLine("deferred", t))
            return [.loadPurchases]
        case .paymentUnverified(let order):
            record(logLine("unverified", order.transaction) + " — " + order.lastFailure, isError: true)
            return [.loadPurchases]
        case .restoreFinished, .restoreFailed, .refreshReceiptFinished, .refreshReceiptFailed:
            // Only the storefront restores and refreshes in this process: the effect's result
            // (`.restoreFinished`, `.receiptRefreshed`) reports the outcome and logs it, once.
            return []
        case .transactionRevoked(let t):
            record(logLine("revoked", t))
            return [.loadPurchases]
        case .subscriptionStatusChanged(let status):
            record("subscription \(status.groupID): \(status.state.rawValue)")
            return [.loadPurchases]
        case .downloadUpdated(let d):
            let isNew = !downloads.contains { $0.id == d.id }
            update(d)
            // A download the storefront hears of for the first time, waiting (an Ask to Buy
            // approval, a purchase made elsewhere), starts: the storefront shows downloads, so
            // it runs them; one it already knows is someone's to resume.
            return isNew && d.state == .waiting && flows[d.productID] == nil ? [.resumeDownload(id: d.id)] : []
        case .downloadPaused(let d):
            update(d)
            record(strings("Download of {} paused at {}", name(of: d.productID), Format.percent(d.fraction)))
            return []
        case .downloadCanceled(let d):
            update(d)
            settledAt[d.id] = now
            report(strings("Download of {} cancelled (space starts it again)", name(of: d.productID)))
            return []
        case .downloadFinished(let d):
            update(d)
            settledAt[d.id] = now
            report(strings("Download of {} finished", name(of: d.productID)), kind: .success)
            return [.loadPurchases]
        case .downloadFailed(let d):
            update(d)
            let reason = d.error.map { "\($0)" } ?? "?"
            report(
                strings("Download of {} failed at {}: {}", name(of: d.productID), Format.percent(d.fraction), reason),
                kind: .error)
            return []
        case .storefrontChanged(let storefront):
            return storefrontChanged(storefront)
        case .refundRequestDecided(let decision):
            return refundRequestDecided(decision)
        }
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

    /// Records a download's new state (in the order downloads first appeared).
    mutating func update(_ download: Download) {
        if let i = downloads.firstIndex(where: { $0.id == download.id }) {
            downloads[i] = download
        } else {
            downloads.append(download)
        }
        if !download.state.isTerminal { settledAt[download.id] = nil }
        if var flow = flows[download.productID], flow.phase < .downloading, !download.state.isTerminal {
            flow.phase = .downloading
            flows[download.productID] = flow
        }
    }
}
