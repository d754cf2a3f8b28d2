import AppStoreServer
import Foundation
import LocalAppStore
import StoreCore
import StorefrontUI

/// The customer's cancel, as in the App Store's subscription page, shared by `storefront cancel`
/// and the storefront's cancel sheet: which subscription an ID names, what the App Store shows
/// (`RealtimeRetention` asks the developer's Get Retention Message endpoint), and the customer's
/// choice carried out through the app's engine and written in the realtime log.
struct CustomerCancel: Sendable {
    /// Why the cancel stops; its description is the message shown.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        let description: String
        /// The store's error, when the app's engine gave one.
        var storeError: StoreError { .systemError(description) }
    }

    /// What a choice did.
    enum Outcome {
        /// The offer or the suggested subscription was bought (or tried: see the result).
        case purchase(PurchaseResult)
        /// Auto-renew is off; the subscription's latest transaction.
        case cancelled(Transaction?)
        /// The customer kept the subscription as it is.
        case kept
    }

    let session: StoreSession

    /// The original transaction ID of the subscription `id` names (a transaction of it, its
    /// original transaction, or its product).
    func subscription(_ id: String) async throws(Failure) -> String {
        let all: [SubscriptionLifecycle]
        do {
            all = try await session.backend.subscriptions.all()
        } catch {
            throw Failure(description: error.description)
        }
        if let found = all.last(where: {
            $0.originalTransactionID == id || $0.productID == id || $0.autoRenewProductID == id
        }) {
            return found.originalTransactionID
        }
        if let transaction = (try? await session.store.history())?.first(where: { $0.transactionID == id }),
            all.contains(where: { $0.originalTransactionID == transaction.originalTransactionID })
        {
            return transaction.originalTransactionID
        }
        throw Failure(
            description:
                "\(id) is not an auto-renewable subscription of this account; 'storefront store subscriptions' lists them."
        )
    }

    /// What the App Store shows on beginning to cancel the subscription `original`.
    func ask(_ original: String) async throws(Failure) -> RetentionOffer {
        do {
            return try await RealtimeRetention(store: session.backend).offer(originalTransactionID: original)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// Carries out `choice` for the subscription `original` on what the App Store showed in
    /// answer to `request` (the subscription it suggested, the offer it signed), through the
    /// app's engine, and logs it (a purchase only when it went through).
    func choose(
        _ choice: RetentionChoice, original: String, request: UUID, alternateProductID: String?,
        promotion: RetentionPromotionalOffer?
    ) async throws(Failure) -> Outcome {
        let outcome: Outcome
        switch choice {
        case .takeOffer:
            guard let promotion else {
                throw Failure(description: "the App Store showed no promotional offer; nothing changed.")
            }
            outcome = .purchase(
                await session.store.purchase(
                    promotion.productID,
                    options: PurchaseOptions(
                        appAccountToken: promotion.appAccountToken, promotionalOffer: promotion.offer)))
        case .switchProduct:
            guard let product = alternateProductID else {
                throw Failure(description: "the App Store suggested no other subscription; nothing changed.")
            }
            outcome = .purchase(await session.store.purchase(product, options: PurchaseOptions()))
        case .keep:
            outcome = .kept
        case .cancelAnyway:
            do {
                outcome = .cancelled(try await session.backend.subscriptions.setAutoRenew(original, on: false))
            } catch {
                throw Failure(description: error.description)
            }
        }
        var made: String?
        if case .purchase(let result) = outcome {
            switch result {
            case .purchased, .pending, .unverified: made = result.transaction?.transactionID
            case .cancelled, .taskCancelled, .failed: return outcome
            }
        }
        do {
            try session.backend.retention.recordChoice(
                request, choice: choice.rawValue, transactionID: made)
        } catch {
            throw Failure(description: "the choice was made but not logged: \(error.description)")
        }
        return outcome
    }
}
