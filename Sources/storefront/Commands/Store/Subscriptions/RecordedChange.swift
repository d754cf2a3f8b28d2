import Foundation
import LocalAppStore
import StoreCore

/// A verb that changes a transaction of the account as Apple's side would (renew, expire,
/// cancel, refund, billing-issue), with the app's session open, as if the app were running: the
/// app's ledger records the renewal, expiry or revocation before the verb returns.
protocol RecordedChange: Verb {
    /// Makes the change; the transaction it leaves latest, `nil` when the journal has none.
    /// - Throws: the store's `LocalAppStoreError`.
    func change(_ store: LocalAppStore, _ call: VerbCall) async throws -> StoreCore.Transaction?
    /// The line the change prints, given the transaction and, for a subscription, its state now.
    func message(_ latest: StoreCore.Transaction, _ subscription: SubscriptionLifecycle?, _ call: VerbCall) -> String
    /// The store's refusal in words for this verb.
    func failure(_ error: LocalAppStoreError, id: String) -> String
}

extension RecordedChange {
    var arguments: [Argument] { [Argument("ID")] }
    var footnote: String? { RecordedChanges.footnote }

    func failure(_ error: LocalAppStoreError, id: String) -> String {
        RecordedChanges.subscriptionMessage(error, id: id)
    }

    /// Opens the whole session, makes the change, waits until the app has recorded it, and
    /// prints the change with the subscription's state.
    /// - Throws: `CLIError.runtime` for the store's refusals (an unknown ID, a subscription
    ///   already expired).
    func run(_ call: VerbCall) async throws(CLIError) {
        let id = call.arguments[0]
        let session = try await StoreSession.open(call.invocation, context: call.context)
        // Subscribed before the change, so the app's recording of it cannot be missed.
        let updates = session.store.transactionUpdates()
        let changed: StoreCore.Transaction?
        do {
            changed = try await change(session.backend, call)
        } catch {
            await session.close()
            throw (error as? LocalAppStoreError).map { .runtime(failure($0, id: id)) } ?? CLIError(error)
        }
        guard let changed else {
            await session.close()
            throw .runtime(
                "The subscription \(id) has no transaction in the local store's journal; `storefront store subscriptions` lists the subscriptions."
            )
        }
        let recorded = await RecordedChanges.waitUntilRecorded(changed, by: session.store, updates: updates)
        let subscription =
            changed.productType == .autoRenewable
            ? (try? await session.backend.subscriptions.all())?.last {
                $0.originalTransactionID == changed.originalTransactionID
            }
            : nil
        await session.close()
        if !recorded {
            call.output.writeError(
                "storefront: the app did not record transaction \(changed.transactionID) within \(Int(RecordedChanges.timeout)) seconds; 'storefront history' shows what it has.\n"
            )
        }
        call.write(
            json: .object([
                ("transaction", TransactionOutput.json(changed)),
                ("subscription", subscription.map(SubscriptionOutput.json) ?? .null),
            ]),
            lines: [message(changed, subscription, call)])
    }
}
