import Foundation
import LocalAppStore
import StoreCore

/// What the verbs of `RecordedChange` share: their footnote in the help, how long they wait for
/// the app, and how they word the store's refusals.
enum RecordedChanges {
    /// How long a change waits for the app to record it before it says so.
    static let timeout: TimeInterval = 10

    /// The paragraph after the change verbs in `storefront help store`, and in each one's help.
    static let footnote = """
        ID is a transaction ID of the subscription or its product ID (refund takes a transaction ID). With \
        --json, renew, expire, cancel, refund and billing-issue print {"transaction": …, "subscription": …} \
        (the subscription's latest transaction and its state as 'store subscriptions --json' shows it; null \
        for a refund that is no subscription). These verbs run with the app's session open, so the app \
        records the renewal, expiry or refund before they return (they say so when it takes over \
        \(Int(timeout)) seconds); 'storefront entitlements' shows the result.
        """

    /// Waits until the app's ledger holds `transaction` as the store has it now (same
    /// revocation and expiry): at once when it already does, else until the engine sends it
    /// on `updates`. A safety bound keeps a lost update from hanging the command.
    /// - Returns: false when the bound passed first.
    static func waitUntilRecorded(
        _ transaction: StoreCore.Transaction, by store: Store, updates: AsyncStream<StoreCore.Transaction>
    ) async -> Bool {
        let id = transaction.transactionID
        let history = (try? await store.history()) ?? []
        if let have = history.first(where: { $0.transactionID == id }),
            have.revocationDate == transaction.revocationDate, have.expiresDate == transaction.expiresDate
        {
            return true
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await update in updates where update.transactionID == id { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// The store's error, worded for subscriptions (the store's own text points at pending purchases).
    static func subscriptionMessage(_ error: LocalAppStoreError, id: String) -> String {
        switch error {
        case .unknownTransaction:
            "No subscription \(id) in this account: give a transaction ID or the product ID of an auto-renewable subscription. `storefront store subscriptions` lists them."
        case .notPending(_, let state, let expected):
            "The subscription \(id) is \(state), not \(expected)."
        default:
            error.description
        }
    }

    /// `what` a message names a subscription by: `ORIGINAL_ID (PRODUCT_ID)`.
    static func what(_ latest: StoreCore.Transaction) -> String {
        "\(latest.originalTransactionID) (\(latest.productID))"
    }

    /// When the latest transaction expires, as messages show it.
    static func end(_ latest: StoreCore.Transaction) -> String { latest.expiresDate.map(TransactionOutput.date) ?? "?" }
}
