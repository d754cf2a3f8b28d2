import StoreCore
import StorefrontUI

/// Buying, as the purchase sheet shows it step by step: contacting the store, authorizing,
/// verifying, and following the content's download; offer codes, restore and the receipt.
struct Purchasing: Sendable {
    let store: any StorefrontStore

    /// Buys `productID` → `.buySheet(.phase)`… then `.buySheet(.finished)` (or
    /// `.buySheet(.needsDownload)` when content is still to come). A promotional offer is signed
    /// first, as the app's server would sign it, so the store judges its signature as the App
    /// Store does. `billingPlan` is the subscription's plan chosen on the sheet. With
    /// `offerCode`, the code is redeemed instead.
    func purchase(
        _ productID: String, quantity: Int, offerID: String?, billingPlan: BillingPlanType? = nil,
        offerCode: String? = nil, send: @escaping @Sendable (Action) -> Void
    ) async {
        // Contacting: the store is asked for the product afresh (a real round trip).
        do throws(StoreError) {
            try await store.requestProduct(productID)
        } catch {
            send(.buySheet(.finished(productID: productID, .failure(error))))
            return
        }
        send(.buySheet(.phase(productID: productID, .authorizing)))
        let result: PurchaseResult
        if let offerCode {
            result = await store.redeem(offerCode: offerCode)
        } else if let offerID {
            let signed: PromotionalOffer
            do throws(StoreError) {
                signed = try store.signPromotionalOffer(productID: productID, offerID: offerID)
            } catch {
                send(.buySheet(.finished(productID: productID, .failure(error))))
                return
            }
            result = await store.purchase(
                productID, quantity: quantity, promotionalOffer: signed, billingPlan: billingPlan)
        } else {
            result = await store.purchase(
                productID, quantity: quantity, promotionalOffer: nil, billingPlan: billingPlan)
        }
        await report(result, of: productID, send: send)
    }

    private func report(
        _ result: PurchaseResult, of productID: String, send: @escaping @Sendable (Action) -> Void
    )
        async
    {
        switch result {
        case .purchased(let transaction):
            send(.buySheet(.phase(productID: productID, .verifying)))
            if let downloads = store.downloads,
                let download = await downloads.download(id: transaction.transactionID), download.state != .finished
            {
                // The sheet follows the download as an effect of its own (`.followDownload`);
                // a download's ID is its transaction's.
                send(.buySheet(.needsDownload(productID: productID, downloadID: download.id)))
                return
            }
            send(.buySheet(.phase(productID: productID, .done)))
            send(
                .buySheet(
                    .finished(productID: productID, .success(.purchased(transactionID: transaction.transactionID)))))
        case .pending(let transaction):
            let interrupted =
                (try? await store.pending())?.contains {
                    $0.transactionID == transaction.transactionID && $0.error == .interrupted
                } ?? false
            send(.buySheet(.finished(productID: productID, .success(interrupted ? .interrupted : .pending))))
        case .cancelled, .taskCancelled:
            send(.buySheet(.finished(productID: productID, .success(.cancelled))))
        case .unverified(let order):
            // Charged and kept; the message says verification is retried.
            send(.buySheet(.finished(productID: productID, .failure(.verificationUnavailable(order.lastFailure)))))
        case .failed(let error, _):
            send(.buySheet(.finished(productID: productID, .failure(error))))
        }
    }

    /// Redeems an offer code for `productID` (the store's first open one, or one issued now, as
    /// App Store Connect hands a tester a code) → the purchase's actions.
    func redeemOfferCode(_ productID: String, send: @escaping @Sendable (Action) -> Void) async {
        let code: String?
        do throws(StoreError) {
            code = try await store.offerCode(for: productID)
        } catch {
            send(.buySheet(.finished(productID: productID, .failure(error))))
            return
        }
        guard let code else {
            send(
                .buySheet(
                    .finished(
                        productID: productID, .failure(.invalidOfferIdentifier("\(productID) has no code offer")))))
            return
        }
        await purchase(productID, quantity: 1, offerID: nil, offerCode: code, send: send)
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
        send(.buySheet(.downloadSettled(productID: productID, settled)))
    }

    /// Restores completed transactions → `.menu(.restoreFinished)`. Restore Purchases is StoreKit 1's
    /// restore: never non-renewing subscriptions (`storefront sync` is StoreKit 2's).
    func restore(send: @escaping @Sendable (Action) -> Void) async {
        send(.menu(.restoreFinished(await result { () async throws(StoreError) in try await store.restore() })))
    }

    /// Asks for a fresh receipt → `.menu(.receiptRefreshed)` with its size.
    func refreshReceipt(send: @escaping @Sendable (Action) -> Void) async {
        send(.menu(.receiptRefreshed(await result { () async throws(StoreError) in try await store.refreshReceipt() })))
    }
}
