import Foundation
import LocalAppStore
import StoreCore
import StorefrontUI

/// The long-running effects and the purchase: the engine's events, downloads, buying, and the
/// Transaction Manager's subscription commands.
extension StorefrontEffects {
    /// Hears the engine until cancelled. The stream is taken first, so nothing the downloads
    /// carried on here report goes unheard; it ends when the task is cancelled.
    func observeStore(send: @escaping @Sendable (Action) -> Void) async {
        let events = store.events()
        async let carriedOn: Void = carryOnDownloads(send: send)
        for await event in events { send(.storeEvent(event)) }
        await carriedOn
    }

    /// Downloads left waiting by an earlier process (killed mid-download) carry on, and every
    /// known download shows in the pane.
    private func carryOnDownloads(send: @escaping @Sendable (Action) -> Void) async {
        guard let downloads = store.downloads else { return }
        for download in await downloads.downloads() where download.state == .waiting {
            try? await downloads.resume(download.id)
        }
        for download in await downloads.downloads() where !download.state.isTerminal {
            send(.storeEvent(.downloadUpdated(download)))
        }
    }

    /// Starts a purchase's download (the storefront shows downloads, so it starts them; the
    /// CLI session does not by default) and answers its sheet with the download as it settled
    /// (finished, failed, paused or cancelled). `waitUntilSettled` does not answer
    /// cancellation: cancelled (at quit), this lingers until the download settles, and the
    /// runtime drops what it sends then.
    func followDownload(_ id: String, productID: String, send: @escaping @Sendable (Action) -> Void) async {
        var settled: Download?
        if let downloads = store.downloads {
            try? await downloads.resume(id)
            settled = try? await downloads.waitUntilSettled(id)
        }
        send(.purchaseDownloadSettled(productID: productID, settled))
    }

    /// Redeems an offer code for `productID`: the store's first open code for it, or one issued
    /// now for its first code offer (as App Store Connect hands a tester a code).
    func redeemOfferCode(_ productID: String, send: @escaping @Sendable (Action) -> Void) async {
        do throws(LocalAppStoreError) {
            var code = try await backend.offerCodes().first { $0.productID == productID && !$0.isRedeemed }
            if code == nil {
                code = try await issueCode(
                    productID,
                    offerID: session.selection.catalog.product(id: productID)?.subscription?.codeOffers.first?.id)
            }
            guard let code else {
                send(
                    .purchaseFinished(
                        productID: productID, .failure(.invalidOfferIdentifier("\(productID) has no code offer"))))
                return
            }
            await purchase(productID, quantity: 1, offerID: nil, offerCode: code.code, send: send)
        } catch {
            send(.purchaseFinished(productID: productID, .failure(error.storeError)))
        }
    }

    private func issueCode(_ productID: String, offerID: String?) async throws(LocalAppStoreError) -> OfferCode? {
        guard let offerID else { return nil }
        return try await backend.issueOfferCodes(productID: productID, offerID: offerID).first
    }

    /// Buys `productID`; a promotional offer is signed first with the store's subscription key,
    /// as the app's server would sign it, so the store judges its signature as the App Store
    /// does. With `offerCode`, the code is redeemed instead.
    func purchase(
        _ productID: String, quantity: Int, offerID: String?, offerCode: String? = nil,
        send: @escaping @Sendable (Action) -> Void
    ) async {
        // Contacting: the store is asked for the product afresh (a real round trip).
        do {
            _ = try await store.requestProducts([productID], useCache: false)
        } catch {
            send(.purchaseFinished(productID: productID, .failure(error)))
            return
        }
        send(.purchasePhase(productID: productID, .authorizing))
        let result: PurchaseResult
        if let offerCode {
            result = await store.redeem(offerCode: offerCode)
        } else if let offerID {
            do {
                let signed = try backend.signPromotionalOffer(productID: productID, offerID: offerID)
                result = await store.purchase(
                    productID, options: PurchaseOptions(quantity: quantity, promotionalOffer: signed))
            } catch {
                send(.purchaseFinished(productID: productID, .failure(error.storeError)))
                return
            }
        } else {
            result = await store.purchase(productID, quantity: quantity)
        }
        switch result {
        case .purchased(let transaction):
            send(.purchasePhase(productID: productID, .verifying))
            if let downloads = store.downloads,
                let download = await downloads.download(id: transaction.transactionID), download.state != .finished
            {
                // The sheet follows the download as an effect of its own (`.followDownload`);
                // a download's ID is its transaction's.
                send(.purchaseNeedsDownload(productID: productID, downloadID: download.id))
                return
            }
            send(.purchasePhase(productID: productID, .done))
            send(
                .purchaseFinished(productID: productID, .success(.purchased(transactionID: transaction.transactionID))))
        case .pending(let transaction):
            let interrupted =
                (try? await backend.pending())?.contains {
                    $0.transaction.transactionID == transaction.transactionID && $0.reason == .interrupted
                } ?? false
            send(.purchaseFinished(productID: productID, .success(interrupted ? .interrupted : .pending)))
        case .cancelled, .taskCancelled:
            send(.purchaseFinished(productID: productID, .success(.cancelled)))
        case .unverified(let order):
            // Charged and kept; the message says verification is retried.
            send(.purchaseFinished(productID: productID, .failure(.verificationUnavailable(order.lastFailure))))
        case .failed(let error, _):
            send(.purchaseFinished(productID: productID, .failure(error)))
        }
    }

    /// Runs a subscription command of the Transaction Manager, lets the app record what it
    /// changed, and answers with the subscription as it is afterwards.
    func subscriptionCommand(_ effect: Effect, id: String) async -> Result<ManagedSubscription, StoreError> {
        let latest: Transaction?
        do {
            latest =
                switch effect {
                case .renew: try await backend.renew(id)
                case .expire: try await backend.expire(id)
                case .setAutoRenew(_, let on): try await backend.setAutoRenew(id, on: on)
                case .setBillingIssue(_, let on): try await backend.setBillingIssue(id, on: on)
                default: nil
                }
        } catch {
            return .failure(Self.subscriptionError(error, id: id))
        }
        await store.synchronize()
        guard let latest,
            let subscription = try? await managedSubscriptions(history: [latest])
                .first(where: { $0.originalTransactionID == latest.originalTransactionID })
        else { return .failure(.unknownTransaction(id)) }
        return .success(subscription)
    }

    /// A subscription command's failure in the storefront's words (the CLI's name commands).
    static func subscriptionError(_ error: LocalAppStoreError, id: String) -> StoreError {
        switch error {
        case .unknownTransaction: .unknownTransaction(id)
        case .notPending(_, let state, let expected):
            .systemError("the subscription \(id) is \(state), not \(expected)")
        default: error.storeError
        }
    }

    /// The account's auto-renewable subscriptions as the store runs them, at the store clock's
    /// now, with the current period's price increase and, once ended, why; each names its
    /// latest transaction in `history` (newest first).
    func managedSubscriptions(history: [Transaction]) async throws -> [ManagedSubscription] {
        let now = backend.configuration.clock.now
        return try await backend.subscriptionsWithPriceIncreases().map { lifecycle, increase in
            let phase: ManagedSubscription.Phase =
                if let expiration = lifecycle.expiration {
                    .expired(at: expiration.date)
                } else if let grace = lifecycle.graceEnd, lifecycle.isInGracePeriod(at: now) {
                    .gracePeriod(until: grace)
                } else if let retry = lifecycle.billingRetryStart { .billingRetry(since: retry) } else {
                    .active(until: lifecycle.periodEnd)
                }
            let latest = history.first { $0.originalTransactionID == lifecycle.originalTransactionID }
            return ManagedSubscription(
                originalTransactionID: lifecycle.originalTransactionID,
                latestTransactionID: latest?.transactionID ?? lifecycle.originalTransactionID,
                productID: lifecycle.productID,
                nextProductID: lifecycle.autoRenewProductID, phase: phase, willAutoRenew: lifecycle.willAutoRenew,
                hasBillingIssue: lifecycle.hasBillingIssue,
                priceConsent: increase.flatMap { Self.priceConsent($0.status) },
                expirationIntent: lifecycle.expiration?.intent)
        }
    }

    /// A price increase's consent as the Transaction Manager shows it (nil for a status this
    /// version does not know).
    static func priceConsent(_ status: PriceIncrease.Status) -> ManagedSubscription.PriceConsent? {
        switch status {
        case .pending: .pending
        case .accepted: .accepted
        case .declined: .declined
        default: nil
        }
    }
}
