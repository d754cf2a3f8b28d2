import StoreCore
import StorefrontUI

/// The Transaction Manager's commands and My Purchases' consume: each runs on the store, the
/// engine then hears what it changed (`synchronize`), and the answer says how it went.
struct TransactionDesk: Sendable {
    let store: any StorefrontStore

    /// Runs a transaction command → `.transactionManager(.commandFinished)`. The customer's own refund
    /// request is the app's call (StoreKit 2's), which the engine hears by itself.
    func run(
        _ command: TransactionCommand, transactionID id: String, send: @escaping @Sendable (Action) -> Void
    )
        async
    {
        do throws(StoreError) {
            try await store.run(command, transactionID: id)
            if command != .requestRefund { await store.synchronize() }
            send(.transactionManager(.commandFinished(command, .success(id))))
        } catch {
            send(.transactionManager(.commandFinished(command, .failure(error))))
        }
    }

    /// Runs a subscription command, lets the app record what it changed, and answers with the
    /// subscription as it is afterwards → `.transactionManager(.subscriptionCommandFinished)`.
    func run(
        _ command: SubscriptionCommand, transactionID id: String, send: @escaping @Sendable (Action) -> Void
    )
        async
    {
        let latest: Transaction?
        do throws(StoreError) {
            latest = try await store.run(command, transactionID: id)
        } catch {
            send(.transactionManager(.subscriptionCommandFinished(command, .failure(error))))
            return
        }
        await store.synchronize()
        guard let latest,
            let subscription = try? await store.subscriptions(history: [latest])
                .first(where: { $0.originalTransactionID == latest.originalTransactionID })
        else {
            send(.transactionManager(.subscriptionCommandFinished(command, .failure(.unknownTransaction(id)))))
            return
        }
        send(.transactionManager(.subscriptionCommandFinished(command, .success(subscription))))
    }

    /// Uses up consumables → `.myPurchases(.consumed)` with the new balance.
    func consume(_ productID: String, quantity: Int, send: @escaping @Sendable (Action) -> Void) async {
        send(
            .myPurchases(
                .consumed(
                    productID: productID,
                    await result { () async throws(StoreError) in try await store.consume(productID, quantity: quantity)
                    })))
    }
}
