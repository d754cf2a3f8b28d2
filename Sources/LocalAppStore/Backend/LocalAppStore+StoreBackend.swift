import Foundation
import StoreCore

/// The `StoreBackend` surface: what an app's `Store` asks of the local App Store, answered by
/// the parts (the payment queue, offers, refund requests, subscriptions, receipts, hosted
/// content). Every failure here reaches the engine as a `StoreError`: the store's own errors
/// are translated at this boundary (`LocalAppStoreError.translating`).
extension LocalAppStore {
    // MARK: - Products

    /// Returns the catalog's products among `identifiers`, localized for the current
    /// storefront and locale; the others in `invalidProductIdentifiers`.
    /// - Throws: the simulated load-products error when that setting is on.
    public func products(identifiers: Set<String>) async throws(StoreError) -> ProductsResponse {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in try refresh() }
        await pause()
        if let failure = state.settings.failLoadProducts { throw failure.storeError() }
        var products: [StoreCore.Product] = []
        var invalid: [String] = []
        for id in identifiers.sorted() {
            if let product = configuration.catalog.product(id: id) {
                products.append(localizer.localize(product))
            } else {
                invalid.append(id)
            }
        }
        return ProductsResponse(products: products, invalidProductIdentifiers: invalid)
    }

    /// Whether the `payments-allowed` setting is on.
    public func canMakePayments() async -> Bool {
        refreshForNonThrowingCaller()
        return state.settings.paymentsAllowed
    }

    /// The current storefront, for the engine (`StoreBackend.currentStorefront()`).
    public func currentStorefront() async -> Storefront? { localizer.storefront }

    // MARK: - The queue

    /// Queues a payment and returns its transaction in state `.purchasing`; after the
    /// latency, the store charges it (or defers or fails it, as the settings say) and sends
    /// the new state on the event stream.
    ///
    /// A payment whose `requestID` is already queued returns that transaction again: a
    /// payment is never charged twice.
    /// - Throws: `.paymentNotAllowed`, `.productNotAvailable`, `.paymentInvalid` (bad quantity
    ///   or offer), `.systemError` when the state cannot be written.
    public func add(_ payment: Payment) async throws(StoreError) -> StoreCore.Transaction {
        try PaymentQueue.add(payment, in: self)
    }

    /// Starts an event stream: first every unfinished transaction that is not `.purchasing`,
    /// then live changes. Transactions left `.purchasing` by a dead process are processed now.
    public func events() async -> AsyncStream<BackendEvent> {
        refreshForNonThrowingCaller()
        let (stream, continuation) = makeEventStream()
        let waiting = PaymentQueue.unfinished(in: self).filter { $0.state != .purchasing }
        if !waiting.isEmpty { continuation.yield(.transactionsUpdated(signed(waiting))) }
        RefundRequests.deliverDecisions(in: self)
        PaymentQueue.adoptAbandoned(in: self)
        Subscriptions.advance(in: self)
        return stream
    }

    /// Every unfinished transaction of the account, oldest first.
    public func unfinishedTransactions() async throws(StoreError) -> [StoreCore.Transaction] {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in try refresh() }
        return signed(PaymentQueue.unfinished(in: self))
    }

    /// Removes a transaction from the queue (it stays in the history).
    /// - Throws: `.unknownTransaction` when it is not in the queue; `.paymentInvalid` (naming
    ///   it) when it is still `.purchasing`.
    public func finish(transactionID: String) async throws(StoreError) {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in
            try PaymentQueue.finish(transactionID, in: self)
        }
    }

    /// The account's purchased and restored transactions the app finished, oldest first.
    public func finishedTransactions() async throws(StoreError) -> [StoreCore.Transaction]? {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in
            try PaymentQueue.finishedTransactions(in: self)
        }
    }

    /// The digest of `finishedTransactions()`' IDs, from the history index's `finished` table
    /// and the journal's recent entries: its cost does not grow with the history.
    public func finishedTransactionsDigest() async throws(StoreError) -> TransactionDigest? {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in
            try PaymentQueue.finishedDigest(in: self)
        }
    }

    // MARK: - Restore

    /// Returns what StoreKit 1's restore brings back, the account's non-consumables and
    /// auto-renewable subscriptions, as new `.restored` transactions (queued until finished),
    /// for `applicationUsername` when given.
    /// - Throws: the simulated restore error when that setting is on.
    public func restoreCompletedTransactions(
        applicationUsername: String?
    ) async throws(StoreError) -> [StoreCore.Transaction] {
        try await restoreCompletedTransactions(applicationUsername: applicationUsername, scope: .completedTransactions)
    }

    /// Returns what a restore of `scope` brings back (`.sync`: non-renewing subscriptions
    /// too) as new `.restored` transactions (queued until finished), for
    /// `applicationUsername` when given.
    /// - Throws: the simulated restore error when that setting is on.
    public func restoreCompletedTransactions(
        applicationUsername: String?, scope: RestoreScope
    ) async throws(StoreError) -> [StoreCore.Transaction] {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in try refresh() }
        await pause()
        if let failure = state.settings.failRestore { throw failure.storeError() }
        return try LocalAppStoreError.translating { () throws(LocalAppStoreError) in
            try PaymentQueue.restore(applicationUsername: applicationUsername, scope: scope, in: self)
        }
    }

    // MARK: - Receipts

    /// Issues a fresh app receipt (PKCS#7, signed by the store's chain), writes it to
    /// `receipts.receiptFileURL` and returns it.
    /// - Throws: the simulated refresh error when that setting is on; `.systemError` naming
    ///   the cause when the receipt cannot be issued.
    public func refreshReceipt() async throws(StoreError) -> Data {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in try refresh() }
        await pause()
        if let failure = state.settings.failRefreshReceipt { throw failure.storeError() }
        do {
            return try StoreReceipts.writeAppReceipt(in: self)
        } catch {
            throw .systemError("cannot issue the app receipt: \(error)")
        }
    }

    /// The app receipt as the account's purchases are now: issued on demand (after every
    /// purchase, restore and refund it reflects them) and written to `receipts.receiptFileURL`.
    public func appReceipt() async -> Data? {
        try? StoreReceipts.writeAppReceipt(in: self)
    }

    /// The account's app transaction on this device, signed now with a fresh device
    /// verification nonce (the local store keeps none, so `refresh` changes nothing).
    /// - Throws: `.systemError` naming the cause when it cannot be issued.
    public func signedAppTransaction(refresh: Bool) async throws(StoreError) -> String {
        do {
            return try StoreReceipts.signedAppTransaction(in: self)
        } catch let error as LocalAppStoreError {
            throw error.storeError
        } catch {
            throw .systemError("cannot issue the app transaction: \(error)")
        }
    }

    // MARK: - Subscriptions, offers and refunds

    /// Renewal info for each of the account's subscriptions, as of the store clock's now (a
    /// period that ended since the last renewal was journaled counts as ended).
    public func renewalInfo() async -> [RenewalInfo] {
        refreshForNonThrowingCaller()
        return Subscriptions.renewalInfo(in: self)
    }

    /// The subscription an unredeemed code is for (the engine's `redeem(offerCode:)` asks).
    /// - Throws: `.invalidOfferIdentifier` for a code never issued, `.ineligibleForOffer` for
    ///   one redeemed already.
    public func productForOfferCode(_ code: String) async throws(StoreError) -> String {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in try refresh() }
        return try Offers.product(forCode: code, in: self)
    }

    /// Queues a refund request for a transaction of the account, for the reason
    /// `UNSATISFIED_WITH_PURCHASE` (`refundRequests.begin` takes another).
    /// - Returns: `.success` once the request is journaled.
    /// - Throws: `.duplicateRequest` while a request for the transaction is pending or was
    ///   approved; `.failed` for an unknown, unpurchased or refunded transaction, or when the
    ///   journal cannot be written.
    public func beginRefundRequest(transactionID: String) async throws(RefundRequestError) -> RefundRequestStatus {
        try RefundRequests.begin(
            transactionID: transactionID, consumptionRequestReason: RefundRequests.defaultReason, in: self)
    }

    // MARK: - Hosted content

    /// The manifest of `productID`'s hosted content from the catalog's content sidecar.
    public func contentManifest(productID: String) async throws(StoreError) -> ContentManifest? {
        configuration.catalog.content[productID]?.manifest
    }

    /// Serves one file of hosted content from byte `offset`, at the `bandwidth` setting and
    /// failing at `fail-downloads-at` when set.
    public nonisolated func contentBytes(
        productID: String, version: String, path: String, offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        ContentDelivery(store: self).bytes(productID: productID, version: version, path: path, offset: offset)
    }

    // MARK: - Latency

    /// Waits one step of latency on the store's clock.
    private func pause() async {
        let delay = state.settings.latency
        guard delay > .zero else { return }
        try? await configuration.clock.sleep(for: delay)
    }
}
