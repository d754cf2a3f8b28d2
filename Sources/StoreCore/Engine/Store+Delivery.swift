import Foundation

/// The pipeline every transaction from the backend goes through: verify, record in the
/// ledger, start its content download, finish with the backend, report. Recording is
/// idempotent by transaction ID, which makes delivery exactly-once; a transaction whose
/// verification could not complete waits as an unverified order and is tried again.
extension Store {
    // MARK: - The pipeline

    /// Handles one event from the backend's stream.
    func handle(_ event: BackendEvent) async {
        switch event {
        case .transactionsUpdated(let transactions):
            for transaction in transactions {
                if transaction.state == .restored, restoreInProgress { continue }
                _ = await process(transaction)
            }
            // Statuses cost a pass over the history: only subscriptions and refunds change them.
            if transactions.contains(where: { $0.productType == .autoRenewable || $0.revocationDate != nil }) {
                await publishStatusChanges()
            }
        case .transactionsRemoved:
            break
        case .subscriptionsChanged:
            await publishStatusChanges()
        case .storePaymentRequested(let payment, let product):
            if storePaymentHandler?(payment, product) == true {
                _ = try? await backend.add(payment)
            } else {
                heldStorePayments.append(payment)
            }
        }
    }

    /// Handles one transaction update. Returns true when the transaction is (now or already)
    /// recorded as delivered.
    func process(_ transaction: Transaction) async -> Bool {
        let id = transaction.transactionID
        guard !inFlight.contains(id) else { return false }
        inFlight.insert(id)
        defer { inFlight.remove(id) }

        switch transaction.state {
        case .deferred:
            if reported.insert(id).inserted {
                broadcaster.send(.paymentDeferred(transaction))
                resume(transaction.payment.requestID, with: .pending(transaction))
            }
            return false
        case .failed:
            let error = transaction.error ?? .unknown("the store gave no reason")
            if reported.insert(id).inserted {
                broadcaster.send(.paymentFailed(transaction, error))
            }
            resume(transaction.payment.requestID,
                   with: error == .paymentCancelled ? .cancelled(transaction) : .failed(error, transaction))
            await finishOrLeaveForRedelivery(id)
            return false
        case .purchased, .restored:
            return await deliver(transaction)
        default:
            return false
        }
    }

    /// Verifies, records and finishes a purchased or restored transaction, and reports it.
    /// Returns true when it is (now or already) recorded.
    private func deliver(_ transaction: Transaction) async -> Bool {
        let id = transaction.transactionID
        let alreadyRecorded: Bool
        do {
            alreadyRecorded = try ledger.contains(transactionID: id)
        } catch {
            return failRecording(transaction, error)
        }

        if alreadyRecorded {
            await applyChanges(to: transaction)
        } else {
            let verifier = configuration.verifier
            let receipt = verifier.needsReceipt ? await backend.appReceipt() : nil
            switch await verifier.verify(transaction, receipt: receipt) {
            case .valid:
                try? ledger.removeUnverifiedOrder(transactionID: id)
            case .invalid(let reason):
                let error = StoreError.verificationFailed(reason)
                try? ledger.removeUnverifiedOrder(transactionID: id)
                broadcaster.send(.paymentFailed(transaction, error))
                resume(transaction.payment.requestID, with: .failed(error, transaction))
                await finishOrLeaveForRedelivery(id)
                return false
            case .unableToComplete(let reason):
                let error = StoreError.verificationUnavailable(reason)
                let attempts = ((try? ledger.unverifiedOrders()) ?? [])
                    .first { $0.transaction.transactionID == id }?.attempts ?? 0
                try? ledger.saveUnverifiedOrder(UnverifiedOrder(
                    transaction: transaction, receipt: await backend.appReceipt(),
                    lastFailure: reason, attempts: attempts + 1))
                broadcaster.send(.paymentFailed(transaction, error))
                resume(transaction.payment.requestID, with: .failed(error, transaction))
                return false
            }
        }

        let isFirstDelivery: Bool
        do {
            isFirstDelivery = try ledger.record(transaction)
        } catch {
            return failRecording(transaction, error)
        }
        configuration.faultHook(.beforeFinish)
        let finishes = configuration.finishesTransactionsAutomatically || !isFirstDelivery
        // Content not yet installed: the download finishes the transaction once it is.
        let waitsForContent = await downloads?.startDownloads(for: transaction, finishesTransaction: finishes) ?? false
        if finishes, !waitsForContent {
            await finishOrLeaveForRedelivery(id)
        }

        let waitingCaller = waiters.isWaiting(for: transaction.payment.requestID)
        if isFirstDelivery || waitingCaller {
            broadcaster.send(.paymentFinished(transaction))
            if waitingCaller {
                resume(transaction.payment.requestID, with: .purchased(transaction))
            } else if !restoreInProgress {
                broadcaster.sendUpdate(transaction)
            }
        }
        return true
    }

    /// Reports a transaction the ledger could not record.
    private func failRecording(_ transaction: Transaction, _ error: any Error) -> Bool {
        let storeError = StoreError.persistenceFailed("\(error)")
        broadcaster.send(.paymentFailed(transaction, storeError))
        resume(transaction.payment.requestID, with: .failed(storeError, transaction))
        return false
    }

    /// Finishes a handled transaction with the backend. Silent because every failure ends
    /// the same way: another process that finished it first already did what was asked, and
    /// a finish the backend could not write leaves the transaction queued, so it is delivered
    /// again and recognised by the ledger (recording is idempotent).
    private func finishOrLeaveForRedelivery(_ transactionID: String) async {
        try? await backend.finish(transactionID: transactionID)
    }

    /// A transaction delivered before comes back changed: refunded, or its expiry moved.
    private func applyChanges(to transaction: Transaction) async {
        guard let recorded = try? ledger.transaction(withID: transaction.transactionID),
              recorded.revocationDate != transaction.revocationDate
                || recorded.expiresDate != transaction.expiresDate
                || recorded.isUpgraded != transaction.isUpgraded
        else { return }
        do {
            try ledger.update(transaction)
        } catch {
            broadcaster.send(.paymentFailed(transaction, .persistenceFailed("\(error)")))
            return
        }
        if recorded.revocationDate == nil, transaction.revocationDate != nil {
            broadcaster.send(.transactionRevoked(transaction))
        }
        broadcaster.sendUpdate(transaction)
    }

    // MARK: - Lost orders

    /// Verifies again every purchase whose verification could not be completed earlier; each
    /// is delivered once verified, failed once rejected, and kept while still unverifiable.
    public func retryUnverifiedOrders() async {
        guard let orders = try? ledger.unverifiedOrders() else { return }
        for order in orders { _ = await process(order.transaction) }
    }

    /// Purchases still waiting for verification.
    public func unverifiedOrders() throws -> [UnverifiedOrder] { try ledger.unverifiedOrders() }
}
