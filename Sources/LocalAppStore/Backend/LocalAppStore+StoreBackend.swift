import Foundation
import StoreCore

/// The `StoreBackend` surface: products, the payment queue, restore and receipts. Every
/// failure here reaches the engine as a `StoreError`: the store's own errors are translated
/// at this boundary (`LocalAppStoreError.storeError`), through `translatingErrors`.
extension LocalAppStore {
    // MARK: - Products

    /// Returns the catalog's products among `identifiers`, localized for the current
    /// storefront and locale; the others in `invalidProductIdentifiers`.
    /// - Throws: the simulated load-products error when that setting is on.
    public func products(identifiers: Set<String>) async throws(StoreError) -> ProductsResponse {
        try translatingErrors { () throws(LocalAppStoreError) in try refresh() }
        await pause()
        if let failure = journal.state.settings.failLoadProducts { throw failure.storeError() }
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
        return journal.state.settings.paymentsAllowed
    }

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
        try translatingErrors { () throws(LocalAppStoreError) in try refresh() }
        guard journal.state.settings.paymentsAllowed else { throw .paymentNotAllowed }
        guard let product = configuration.catalog.product(id: payment.productID) else {
            throw .productNotAvailable(productID: payment.productID)
        }
        let type = ProductLocalizer.type(of: product.kind)
        guard Payment.quantities.contains(payment.quantity) else {
            throw .paymentInvalid(
                "quantity \(payment.quantity) is outside \(Payment.quantities.lowerBound)…\(Payment.quantities.upperBound)"
            )
        }
        guard payment.quantity == 1 || type == .consumable else {
            throw .paymentInvalid("only consumables can be bought more than one at a time")
        }
        // A signed offer is judged as the App Store judges it; an offer ID alone is the
        // testing option (SKTestSession's `.promotionalOffer(id:)`), checked for existence.
        var offerNonce: UsedOfferNonce?
        if let offer = payment.promotionalOffer {
            offerNonce = try promotionalOfferCheck().check(
                offer, payment: payment, product: product, state: journal.state)
        } else if let offerID = payment.offerID,
            !(product.subscription?.promotionalOffers.contains { $0.id == offerID } ?? false)
        {
            throw .invalidOfferIdentifier("\(payment.productID) has no promotional offer \(offerID)")
        }
        let account = configuration.account.id
        let redemption = SubscriptionOfferRedemption(accountID: account, now: configuration.clock.now)
        let special = try redemption.offer(for: payment, product: product, state: journal.state)
        let price = localizer.price(of: product)
        let storefront = localizer.storefront.code
        let now = configuration.clock.now
        guard let token = lease?.token else {
            throw StoreJournal.readOnlyError(configuration.stateDirectory.path).storeError
        }
        // Not synced: a crash that loses a payment just queued loses nothing charged (the
        // charge is synced, and its sync makes this line durable too), and the app has no
        // transaction to deliver yet; the purchase simply did not happen.
        // The nonce and the code spent with the payment are lost with it, consistently.
        let (entry, _) = try translatingErrors {
            () throws(LocalAppStoreError) -> (result: QueueEntry, changed: [QueueEntry]) in
            try transactAndAnnounce(sync: false) { (state: inout JournalState) throws(LocalAppStoreError) in
                if let existing = state.entry(requestID: payment.requestID), existing.accountID == account {
                    return ([], existing)
                }
                let transaction = StoreCore.Transaction(
                    transactionID: state.allocateTransactionID(), productID: payment.productID, productType: type,
                    payment: payment, state: .purchasing, purchaseDate: now, price: price.amount,
                    currencyCode: price.currencyCode, storefront: storefront,
                    subscriptionGroupID: product.subscription?.groupID,
                    offerType: special?.kind ?? (payment.offerID == nil ? nil : .promotional),
                    offerID: special?.id ?? payment.offerID)
                let entry = QueueEntry(
                    transaction: transaction, accountID: account, charged: false, finished: false, pending: nil,
                    owner: token)
                var records = [JournalRecord.make(entry)]
                if var nonce = offerNonce {
                    do throws(StoreError) {
                        try PromotionalOfferCheck.checkNonce(nonce, in: state)
                    } catch {
                        throw .refused(error)
                    }
                    nonce.transactionID = entry.id
                    records.append(JournalRecord.make(StoreKitRecord(usedNonce: nonce)))
                }
                // The code is used up with the payment, in one write; another process may
                // have redeemed it since the check above.
                if let text = payment.offerCode {
                    var code: OfferCode
                    do throws(StoreError) {
                        code = try redemption.redeemable(text, state: state)
                    } catch {
                        throw .refused(error)
                    }
                    code.redeemedAt = now
                    code.redeemedBy = account
                    code.transactionID = entry.id
                    records.append(JournalRecord.make(StoreKitRecord(offerCode: code)))
                }
                return (records, entry)
            }
        }
        if entry.transaction.state == .purchasing && entry.owner == token {
            scheduleSettlement(of: entry.id)
        }
        return entry.transaction
    }

    /// Starts an event stream: first every unfinished transaction that is not `.purchasing`,
    /// then live changes. Transactions left `.purchasing` by a dead process are processed now.
    public func events() async -> AsyncStream<BackendEvent> {
        refreshForNonThrowingCaller()
        let (stream, continuation) = fanOut.makeStream { [weak self] id in
            Task { await self?.removeListener(id) }
        }
        let waiting = unfinished().filter { $0.state != .purchasing }
        if !waiting.isEmpty { continuation.yield(.transactionsUpdated(signed(waiting))) }
        deliverRefundDecisions()
        adoptAbandoned()
        advanceSubscriptions()
        return stream
    }

    /// Every unfinished transaction of the account, oldest first.
    public func unfinishedTransactions() async throws(StoreError) -> [StoreCore.Transaction] {
        try translatingErrors { () throws(LocalAppStoreError) in try refresh() }
        return signed(unfinished())
    }

    /// Removes a transaction from the queue (it stays in the history).
    /// - Throws: `.unknownTransaction` when it is not in the queue; `.paymentInvalid` (naming
    ///   it) when it is still `.purchasing`.
    public func finish(transactionID: String) async throws(StoreError) {
        let account = configuration.account.id
        // Not synced: if a crash loses the finish, the transaction is delivered again and the
        // engine, which recorded it, finishes it again.
        _ = try translatingErrors { () throws(LocalAppStoreError) in
            try transactAndAnnounce(sync: false) { state throws(LocalAppStoreError) in
                guard var entry = state.entries[transactionID], entry.accountID == account, !entry.finished else {
                    throw .unknownTransaction(transactionID)
                }
                guard entry.transaction.state != .purchasing else {
                    throw .notPending(transactionID: transactionID, state: "purchasing", expected: "finishable")
                }
                entry.finished = true
                return ([JournalRecord.make(entry)], ())
            }
        }
    }

    // MARK: - Restore and receipts

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
        try translatingErrors { () throws(LocalAppStoreError) in try refresh() }
        await pause()
        if let failure = journal.state.settings.failRestore { throw failure.storeError() }
        let account = configuration.account.id
        let now = configuration.clock.now
        let (restored, _) = try translatingErrors { () throws(LocalAppStoreError) in
            try transactAndAnnounce { state throws(LocalAppStoreError) in
                Self.restoredCopies(
                    accountID: account, applicationUsername: applicationUsername, scope: scope, at: now, state: &state)
            }
        }
        return signed(restored)
    }

    /// New `.restored` copies of every purchase of `accountID` (for `applicationUsername` when
    /// given) whose product type `scope` restores, and every renewal of a subscription; a
    /// non-consumable bought again (delivered free) only through its first purchase. Not
    /// revoked ones.
    /// - Returns: the records to journal and the copies.
    static func restoredCopies(
        accountID account: String, applicationUsername: String?, scope: RestoreScope, at now: Date,
        state: inout JournalState
    ) -> (records: [JournalRecord], result: [StoreCore.Transaction]) {
        // Only the entries of products the scope restores are read from the compacted history.
        let originals = state.entries(where: { $0.restorable(in: scope) }).filter { entry in
            let transaction = entry.transaction
            return entry.accountID == account && transaction.state == .purchased
                && transaction.revocationDate == nil
                && (transaction.productType != .nonConsumable || transaction.originalTransactionID == entry.id)
                && (applicationUsername == nil || transaction.payment.applicationUsername == applicationUsername)
        }
        var records: [JournalRecord] = []
        var restored: [StoreCore.Transaction] = []
        for original in originals {
            let old = original.transaction
            let transaction = StoreCore.Transaction(
                transactionID: state.allocateTransactionID(), originalTransactionID: old.originalTransactionID,
                productID: old.productID, productType: old.productType, payment: old.payment, state: .restored,
                purchaseDate: now, originalPurchaseDate: old.originalPurchaseDate, expiresDate: old.expiresDate,
                webOrderLineItemID: old.webOrderLineItemID, price: old.price, currencyCode: old.currencyCode,
                storefront: old.storefront, subscriptionGroupID: old.subscriptionGroupID,
                isUpgraded: old.isUpgraded, offerType: old.offerType, offerID: old.offerID)
            records.append(
                JournalRecord.make(
                    QueueEntry(
                        transaction: transaction, accountID: account, charged: false, finished: false, pending: nil,
                        owner: nil)))
            restored.append(transaction)
        }
        return (records, restored)
    }

    /// Issues a fresh app receipt (PKCS#7, signed by the store's chain), writes it to
    /// `receiptFileURL` and returns it.
    /// - Throws: the simulated refresh error when that setting is on; `.systemError` naming
    ///   the cause when the receipt cannot be issued.
    public func refreshReceipt() async throws(StoreError) -> Data {
        try translatingErrors { () throws(LocalAppStoreError) in try refresh() }
        await pause()
        if let failure = journal.state.settings.failRefreshReceipt { throw failure.storeError() }
        do {
            return try await writeAppReceipt()
        } catch {
            throw .systemError("cannot issue the app receipt: \(error)")
        }
    }

    /// The app receipt as the account's purchases are now: issued on demand (after every
    /// purchase, restore and refund it reflects them) and written to `receiptFileURL`.
    public func appReceipt() async -> Data? {
        try? await writeAppReceipt()
    }

    /// The account's app transaction on this device, signed now with a fresh device
    /// verification nonce (the local store keeps none, so `refresh` changes nothing).
    /// - Throws: `.systemError` naming the cause when it cannot be issued.
    public func signedAppTransaction(refresh: Bool) async throws(StoreError) -> String {
        do {
            return try signedAppTransaction()
        } catch let error as LocalAppStoreError {
            throw error.storeError
        } catch {
            throw .systemError("cannot issue the app transaction: \(error)")
        }
    }

    /// Runs `body`, translating the store's error into the engine's at the `StoreBackend`
    /// boundary.
    func translatingErrors<T>(_ body: () throws(LocalAppStoreError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw error.storeError
        }
    }
}

extension LocalAppStore {
    /// The account's purchased and restored transactions the app finished, oldest first.
    public func finishedTransactions() async throws(StoreError) -> [StoreCore.Transaction]? {
        try translatingErrors { () throws(LocalAppStoreError) in
            try refresh()
            // Unsigned: the engine compares IDs, and a long history would cost a JWS each.
            return try accountEntries()
                .filter { $0.finished && ($0.transaction.state == .purchased || $0.transaction.state == .restored) }
                .map(\.transaction)
        }
    }

    /// The digest of `finishedTransactions()`' IDs, from the history index's `finished` table
    /// and the journal's recent entries: its cost does not grow with the history.
    public func finishedTransactionsDigest() async throws(StoreError) -> TransactionDigest? {
        try translatingErrors { () throws(LocalAppStoreError) in
            try refresh()
            return try journal.checked(journal.state.finishedDigest(accountID: configuration.account.id))
        }
    }
}
