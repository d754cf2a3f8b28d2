import LocalAppStore
import StoreCore

/// How a purchase's outcome (`buy`, `redeem`) appears as a line and in the `--json` contract.
enum PurchaseOutput {
    /// The one line a purchase's outcome prints without `--json`.
    static func describe(_ result: PurchaseResult, name: String) -> String {
        switch result {
        case .purchased(let t):
            let quantity = t.quantity > 1 ? " ×\(t.quantity)" : ""
            return "Purchased \(name)\(quantity) (transaction \(t.transactionID))."
        case .pending(let t):
            // Each kind of wait is ended by its own commands (PendingReason's).
            let reason = PendingReason(waitingOf: t)
            let heading = reason == .interrupted ? "Interrupted" : "Waiting for approval"
            let ending = reason.commands(transactionID: t.transactionID).map { " End the wait with \($0)." } ?? ""
            return "\(heading): \(name) (transaction \(t.transactionID)).\(ending)"
        case .unverified(let order):
            return
                "Charged, not yet verified: \(name) (transaction \(order.transaction.transactionID)): \(order.lastFailure). Verified again at the next start."
        case .cancelled, .taskCancelled:
            return "Cancelled: \(name)."
        case .failed(let error, _):
            return "Failed: \(name): \(error.description)"
        }
    }

    /// The outcome as a JSON object: its state, the transaction, the error and the download.
    static func json(_ result: PurchaseResult, download: Download?) -> JSONText {
        var members: [(String, JSONText)] = [("state", .string(result.state))]
        if let t = result.transaction, !t.transactionID.isEmpty {
            members.append(("transactionID", .string(t.transactionID)))
            members.append(("transaction", TransactionOutput.json(t)))
        }
        if case .failed(let error, _) = result { members.append(("error", .string(error.description))) }
        if let download { members.append(("download", DownloadsOutput.json(download))) }
        return .object(members)
    }
}
