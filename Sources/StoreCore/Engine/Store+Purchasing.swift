import Foundation

/// Purchasing: a payment goes to the backend, and the caller waits (in `waiters`) until the
/// pipeline (`Store+Delivery.swift`) decides it; finishing by hand for apps that do.
extension Store {
    // MARK: - Purchasing

    /// Buys a product and returns once the purchase is delivered, pending, unverified,
    /// cancelled or failed. A product not yet fetched is fetched first.
    /// - Parameters:
    ///   - productID: the product to buy.
    ///   - quantity: how many; only consumables may buy more than one.
    ///   - applicationUsername: an opaque account identifier (see `ApplicationUsername.hash`).
    ///   - orderData: the app's own order data, kept with the transaction.
    ///   - offerID: a promotional offer to apply.
    /// - Returns: the outcome; see `purchase(_:options:)`.
    public func purchase(
        _ productID: String, quantity: Int = 1, applicationUsername: String? = nil,
        orderData: [String: String] = [:], offerID: String? = nil
    ) async -> PurchaseResult {
        await purchase(
            productID,
            options: PurchaseOptions(
                quantity: quantity, applicationUsername: applicationUsername, orderData: orderData, offerID: offerID))
    }

    /// Buys a product with `options` and returns once the purchase is delivered, pending,
    /// unverified, cancelled or failed.
    ///
    /// Safe to call at any time: an engine not yet started starts first, so the payment never
    /// reaches the store without a way to be delivered. Cancelling the calling task returns
    /// `.taskCancelled` at once; a payment the store already queued goes on and is delivered
    /// once, on `transactionUpdates()` or by the next `start()`.
    /// - Parameters:
    ///   - productID: the product to buy; fetched first when it is not cached.
    ///   - options: quantity, the app's account and order data, an offer, and this purchase's
    ///     own verifier and observer.
    /// - Returns: the outcome.
    public func purchase(_ productID: String, options: PurchaseOptions) async -> PurchaseResult {
        await start()
        guard !Task.isCancelled else { return .taskCancelled(nil) }
        let payment = Payment(
            productID: productID, quantity: options.quantity, applicationUsername: options.applicationUsername,
            orderData: options.orderData, offerID: options.offerID, appAccountToken: options.appAccountToken,
            promotionalOffer: options.promotionalOffer, offerCode: options.offerCode,
            winBackOfferID: options.winBackOfferID, billingPlanType: options.billingPlanType)
        requestOptions[payment.requestID] = options
        if let observer = options.observer { broadcaster.addObserver(observer, forRequest: payment.requestID) }
        let product: Product
        do {
            product = try await productForPurchase(productID)
        } catch {
            return refuse(payment, type: nil, error)
        }
        let quantity = options.quantity
        guard quantity >= 1, quantity == 1 || product.type == .consumable else {
            return refuse(
                payment, type: product.type, .paymentInvalid("quantity \(quantity) is not allowed for \(productID)"))
        }
        guard !Task.isCancelled else {
            endRequest(payment.requestID)
            return .taskCancelled(nil)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.add(payment.requestID, continuation)
                Task { await self.submit(payment, type: product.type) }
            }
        } onCancel: {
            Task { await self.stopWaiting(for: payment.requestID) }
        }
    }

    /// `purchase` with closures, in the shape of RMStore and DEStoreKitManager. `restored`
    /// falls back to `success`, `cancelled` to `failure` with `.paymentCancelled`, and
    /// `unverified` to `failure` with `.verificationUnavailable` (RMStore's "unable to complete
    /// verification"), when not given. The closures are called from a task of their own, not on
    /// the main actor: from the main actor, call the async `purchase` (it resumes there).
    /// - Parameters:
    ///   - productID: the product to buy.
    ///   - options: the purchase's options (see `PurchaseOptions`).
    ///   - success: called with the delivered transaction.
    ///   - failure: called when the purchase failed, with its transaction if the store made one.
    ///   - restored: called instead of `success` when the store delivered it as restored.
    ///   - cancelled: called when the user or an approver cancelled.
    ///   - deferred: called when the purchase waits for approval.
    ///   - unverified: called when the customer was charged but verification could not complete.
    public nonisolated func purchase(
        _ productID: String, options: PurchaseOptions = PurchaseOptions(),
        success: @escaping @Sendable (Transaction) -> Void,
        failure: @escaping @Sendable (Transaction?, StoreError) -> Void,
        restored: (@Sendable (Transaction) -> Void)? = nil,
        cancelled: (@Sendable (Transaction?) -> Void)? = nil,
        deferred: (@Sendable (Transaction) -> Void)? = nil,
        unverified: (@Sendable (UnverifiedOrder) -> Void)? = nil
    ) {
        Task {
            switch await purchase(productID, options: options) {
            case .purchased(let t) where t.state == .restored: (restored ?? success)(t)
            case .purchased(let t): success(t)
            case .pending(let t): deferred?(t)
            case .unverified(let order):
                if let unverified {
                    unverified(order)
                } else {
                    failure(order.transaction, .verificationUnavailable(order.lastFailure))
                }
            // This task is never cancelled: nothing outside holds it.
            case .cancelled(let t), .taskCancelled(let t):
                if let cancelled { cancelled(t) } else { failure(t, .paymentCancelled) }
            case .failed(let error, let t): failure(t, error)
            }
        }
    }

    /// Hands `payment` to the backend; a refusal is the waiting caller's outcome.
    private func submit(_ payment: Payment, type: ProductType) async {
        do {
            let queued = try await backend.add(payment)
            waiters.noteQueued(payment.requestID, queued)
        } catch {
            refuse(payment, type: type, error)
        }
    }

    /// Stops the wait of a `purchase` call whose task was cancelled. A purchase delivered
    /// while its caller waited for content goes out as an update now: no caller will see it.
    private func stopWaiting(for requestID: String) {
        if let delivered = waiters.cancel(requestID), !restoreInProgress {
            broadcaster.sendUpdate(delivered)
        }
    }

    /// Ends a payment refused before the store made a transaction of it (by the engine, or by
    /// the store when asked to queue it): broadcast once as a failed transaction with no
    /// transaction ID that names what the app asked for (the payment as given; the product's
    /// type, empty when the product is unknown), and the outcome of the waiting caller, if any.
    @discardableResult
    func refuse(_ payment: Payment, type: ProductType?, _ error: StoreError) -> PurchaseResult {
        let transaction = Transaction(
            transactionID: "", productID: payment.productID, productType: type ?? ProductType(rawValue: ""),
            payment: payment, state: .failed, purchaseDate: configuration.clock.now, error: error)
        broadcaster.send(.paymentFailed(transaction, error))
        let result: PurchaseResult = error == .paymentCancelled ? .cancelled(nil) : .failed(error, nil)
        resume(payment.requestID, with: result)
        endRequest(payment.requestID)
        return result
    }

    /// The product `productID`, from the cache or fetched now.
    private func productForPurchase(_ productID: String) async throws(StoreError) -> Product {
        if let product = productCache[productID] { return product }
        let response = try await requestProducts([productID], useCache: false)
        guard let product = response.products.first(where: { $0.id == productID }) else {
            throw StoreError.productNotAvailable(productID: productID)
        }
        return product
    }

    /// Resumes the `purchase` call waiting for the payment `requestID`, if one waits.
    func resume(_ requestID: String, with result: PurchaseResult) {
        waiters.resume(requestID, with: result)
    }

    /// Forgets the options of a purchase that has ended: its own observer is told no more.
    func endRequest(_ requestID: String) {
        requestOptions.removeValue(forKey: requestID)
        broadcaster.removeObserver(forRequest: requestID)
    }

    // MARK: - Finishing

    /// Finishes a transaction by hand (when `finishesTransactionsAutomatically` is false).
    /// - Throws: `StoreError.unknownTransaction` if the backend no longer has it.
    public func finish(_ transaction: Transaction) async throws(StoreError) {
        try await backend.finish(transactionID: transaction.transactionID)
    }

    /// Transactions the backend still holds unfinished (for apps that finish by hand).
    /// - Throws: `StoreError` from the store.
    public func unfinishedTransactions() async throws(StoreError) -> [Transaction] {
        try await backend.unfinishedTransactions()
    }
}
