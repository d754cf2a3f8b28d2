import Foundation

/// The pipeline every transaction from the backend goes through: verify, record in the
/// ledger, start its content download, finish with the backend, report. Recording is
/// idempotent by transaction ID, so the ledger counts each purchase once; a transaction whose
/// verification could not complete waits as an unverified order and is tried again.
extension Store {
    // MARK: - The pipeline

    /// Handles one event from the backend's stream as the event in hand.
    func handleInHand(_ event: BackendEvent) async {
        underway.begin(.backendEvent)
        defer { underway.end(.backendEvent) }
        await handle(event)
    }

    /// Returns once `work` is not running (at once when it is not).
    func waitFor(_ work: WorkUnderway.Work) async {
        while underway.isRunning(work) {
            await withCheckedContinuation { underway.wait(for: work, $0) }
        }
    }

    /// Handles one event from the backend's stream.
    func handle(_ event: BackendEvent) async {
        // Statuses are reported as of the event's arrival, whatever the clock says once the
        // pipeline has recorded it.
        let arrival = configuration.clock.now
        switch event {
        case .transactionsUpdated(let transactions):
            for transaction in transactions {
                if transaction.state == .restored, restoreInProgress { continue }
                _ = await process(transaction)
            }
            // Statuses cost a pass over the history: only subscriptions and refunds change them.
            if transactions.contains(where: { $0.productType == .autoRenewable || $0.revocationDate != nil }) {
                await publishStatusChanges(at: arrival)
            }
        case .transactionsRemoved:
            break
        case .subscriptionsChanged:
            await publishStatusChanges(at: arrival)
        case .storefrontChanged(let storefront):
            broadcaster.send(.storefrontChanged(storefront))
        case .refundRequestDecided(let decision):
            broadcaster.send(.refundRequestDecided(decision))
        case .storePaymentRequested(let payment, let product):
            if storePaymentHandler?(payment, product) == true {
                _ = try? await backend.add(payment)
            } else {
                heldStorePayments.append(payment)
            }
        }
    }

    /// Handles one transaction update, after the pipeline of the same transaction running
    /// on another path (if any) has ended.
    /// - Returns: what it came to (`.purchased` when the transaction is, now or already,
    ///   recorded as delivered); nil while it is still being bought.
    @discardableResult
    func process(_ transaction: Transaction) async -> PurchaseResult? {
        let id = transaction.transactionID
        await waitFor(.pipeline(id))
        underway.begin(.pipeline(id))
        defer { underway.end(.pipeline(id)) }
        let requestID = transaction.payment.requestID

        switch transaction.state {
        case .deferred:
            if reported.insert(Reported(id, .deferred)).inserted {
                broadcaster.send(.paymentDeferred(transaction))
                resume(requestID, with: .pending(transaction))
            }
            return .pending(transaction)
        case .failed:
            let error = transaction.error ?? .unknown("the store gave no reason")
            // Also after it was reported deferred: an Ask to Buy declined is news of its own.
            if reported.insert(Reported(id, .failed)).inserted {
                broadcaster.send(.paymentFailed(transaction, error))
            }
            let result: PurchaseResult =
                error == .paymentCancelled ? .cancelled(transaction) : .failed(error, transaction)
            resume(requestID, with: result)
            endRequest(requestID)
            await finishOrLeaveForRedelivery(id)
            return result
        case .purchased, .restored:
            return await deliver(transaction)
        default:
            return nil
        }
    }

    /// Verifies, records and finishes a purchased or restored transaction, and reports it.
    /// - Returns: `.purchased` when it is (now or already) recorded, `.unverified` when its
    ///   verification could not complete, `.failed` when it was rejected or not recorded.
    private func deliver(_ transaction: Transaction) async -> PurchaseResult {
        let id = transaction.transactionID
        let requestID = transaction.payment.requestID
        let alreadyRecorded: Bool
        do {
            alreadyRecorded = try await ledger.lookUp { ledger throws(LedgerError) in
                try ledger.contains(transactionID: id)
            }
        } catch {
            return failRecording(transaction, error)
        }

        // A change (a refund, a moved expiry) is announced as one.
        let announcedChange = alreadyRecorded ? await applyChanges(to: transaction) : false
        if !alreadyRecorded, let rejected = await verify(transaction) {
            return rejected
        }

        let isFirstDelivery: Bool
        do {
            isFirstDelivery = try await ledger.perform { ledger throws(LedgerError) in
                // Verified now: no longer an unverified order (if it was one), in the same trip
                // to the ledger as its record.
                if !alreadyRecorded { try? ledger.removeUnverifiedOrder(transactionID: id) }
                return try ledger.record(transaction)
            }
        } catch {
            return failRecording(transaction, error)
        }
        configuration.faultHook(.beforeFinish)
        // Announced once recorded, before its content downloads (whose events follow). One
        // recorded by an earlier or another process (killed before announcing it, or left
        // unfinished by the app) is announced the first time this process sees it: the ledger
        // counts it once, the app hears of it until it is finished.
        let isNewHere = reported.insert(Reported(id, .purchased)).inserted && !announcedChange
        let wasWaiting = waiters.isWaiting(for: requestID)
        let announces = isFirstDelivery || isNewHere || wasWaiting
        if announces {
            let revoked = !isFirstDelivery && transaction.revocationDate != nil
            broadcaster.send(revoked ? .transactionRevoked(transaction) : .paymentFinished(transaction))
        }
        // Finishing a delivered transaction by hand is the app's: nothing here finishes one
        // behind its back (failed and rejected ones are finished here in either mode).
        let finishes = configuration.finishesTransactionsAutomatically
        // Content not yet installed: the download finishes the transaction once it is.
        broadcaster.noteDownloadTransaction(transaction)
        let contentPending = await downloads?.startDownloads(for: transaction, finishesTransaction: finishes) ?? false
        if finishes, !contentPending {
            await finishOrLeaveForRedelivery(id)
        }

        // The caller may have stopped waiting meanwhile (its task cancelled): then it is an update.
        if waiters.isWaiting(for: requestID) {
            if contentPending, requestOptions[requestID]?.waitsForContent == true {
                waiters.noteAwaitingContent(requestID, transaction)
            } else {
                resume(requestID, with: .purchased(transaction))
            }
        } else if announces, !restoreInProgress {
            broadcaster.sendUpdate(transaction)
        }
        if contentPending, requestOptions[requestID] != nil {
            // The request's caller or observer hears of the content; it ends when that settles.
            Task { await self.awaitContent(of: transaction) }
        } else {
            endRequest(requestID)
        }
        return .purchased(transaction)
    }

    /// Verifies a transaction not yet recorded, with its purchase's own verifier when it has one.
    /// - Returns: nil when it is valid (its record then removes it from the unverified orders);
    ///   otherwise the outcome already reported (rejected: failed and finished; verification
    ///   unavailable: kept as an unverified order).
    private func verify(_ transaction: Transaction) async -> PurchaseResult? {
        let id = transaction.transactionID
        let requestID = transaction.payment.requestID
        let verifier = requestOptions[requestID]?.verifier ?? configuration.verifier
        let receipt = verifier.needsReceipt ? await backend.appReceipt() : nil
        switch await verifier.verify(transaction, receipt: receipt) {
        case .valid:
            return nil
        case .invalid(let reason):
            let error = StoreError.verificationFailed(reason)
            try? await ledger.perform { ledger throws(LedgerError) in
                try ledger.removeUnverifiedOrder(transactionID: id)
            }
            broadcaster.send(.paymentFailed(transaction, error))
            resume(requestID, with: .failed(error, transaction))
            endRequest(requestID)
            await finishOrLeaveForRedelivery(id)
            return .failed(error, transaction)
        case .unableToComplete(let reason):
            let orders = try? await ledger.perform { ledger throws(LedgerError) in try ledger.unverifiedOrders() }
            let attempts = (orders ?? []).first { $0.transaction.transactionID == id }?.attempts ?? 0
            let kept: Data? = if let receipt { receipt } else { await backend.appReceipt() }
            let order = UnverifiedOrder(
                transaction: transaction, receipt: kept, lastFailure: reason, attempts: attempts + 1)
            do {
                try await ledger.perform { ledger throws(LedgerError) in try ledger.saveUnverifiedOrder(order) }
            } catch {
                return failRecording(transaction, error)
            }
            broadcaster.send(.paymentUnverified(order))
            resume(requestID, with: .unverified(order))
            return .unverified(order)
        }
    }

    /// Waits for the content download of a delivered purchase to settle, then resumes its
    /// caller (when it waits for content) and ends the request.
    private func awaitContent(of transaction: Transaction) async {
        _ = try? await downloads?.waitUntilSettled(transaction.transactionID)
        resume(transaction.payment.requestID, with: .purchased(transaction))
        endRequest(transaction.payment.requestID)
    }

    /// Reports a transaction the ledger could not record; it stays unfinished, so the store
    /// delivers it again.
    private func failRecording(_ transaction: Transaction, _ error: LedgerError) -> PurchaseResult {
        let storeError = StoreError.persistenceFailed(error)
        broadcaster.send(.paymentFailed(transaction, storeError))
        resume(transaction.payment.requestID, with: .failed(storeError, transaction))
        return .failed(storeError, transaction)
    }

    /// Finishes a handled transaction with the backend. Silent because every failure ends
    /// the same way: another process that finished it first already did what was asked, and
    /// a finish the backend could not write leaves the transaction queued, so it is delivered
    /// again and recognised by the ledger (recording is idempotent).
    private func finishOrLeaveForRedelivery(_ transactionID: String) async {
        try? await backend.finish(transactionID: transactionID)
    }

    /// A transaction delivered before comes back changed: refunded, or its expiry moved.
    /// - Returns: whether the change was announced (on the update stream).
    private func applyChanges(to transaction: Transaction) async -> Bool {
        let id = transaction.transactionID
        let found = try? await ledger.perform { ledger throws(LedgerError) in try ledger.transaction(withID: id) }
        guard let recorded = found ?? nil,
            recorded.revocationDate != transaction.revocationDate
                || recorded.expiresDate != transaction.expiresDate
                || recorded.isUpgraded != transaction.isUpgraded
        else { return false }
        do {
            try await ledger.perform { ledger throws(LedgerError) in try ledger.update(transaction) }
        } catch {
            broadcaster.send(.paymentFailed(transaction, .persistenceFailed(error)))
            return false
        }
        if recorded.revocationDate == nil, transaction.revocationDate != nil {
            broadcaster.send(.transactionRevoked(transaction))
        }
        broadcaster.sendUpdate(transaction)
        return true
    }
}
