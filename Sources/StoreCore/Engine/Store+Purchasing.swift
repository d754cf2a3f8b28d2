import Foundation

/// Purchasing: a payment goes to the backend, and the caller waits (in `waiters`) until the
/// pipeline (`Store+Delivery.swift`) decides it; finishing by hand for apps that do.
extension Store {
    // MARK: - Purchasing

    /// Buys a product and returns once the purchase is delivered, pending, cancelled or failed.
    /// A product not yet fetched is fetched first.
    /// - Parameters:
    ///   - productID: the product to buy.
    ///   - quantity: how many; only consumables may buy more than one.
    ///   - applicationUsername: an opaque account identifier (see `ApplicationUsername.hash`).
    ///   - orderData: the app's own order data, kept with the transaction.
    ///   - offerID: a promotional offer to apply.
    public func purchase(
        _ productID: String, quantity: Int = 1, applicationUsername: String? = nil,
        orderData: [String: String] = [:], offerID: String? = nil
    ) async -> PurchaseResult {
        let product: Product
        do {
            product = try await productForPurchase(productID)
        } catch {
            return finishEarly(.failed(error, nil))
        }
        guard quantity >= 1, quantity == 1 || product.type == .consumable else {
            return finishEarly(.failed(.paymentInvalid("quantity \(quantity) is not allowed for \(productID)"), nil))
        }
        let payment = Payment(
            productID: productID, quantity: quantity, applicationUsername: applicationUsername,
            orderData: orderData, offerID: offerID)
        return await withCheckedContinuation { continuation in
            waiters.add(payment.requestID, continuation)
            Task { await self.submit(payment) }
        }
    }

    /// `purchase` with closures, in the shape of RMStore and DEStoreKitManager. `restored`
    /// falls back to `success` and `cancelled` to `failure` when not given.
    public nonisolated func purchase(
        _ productID: String, quantity: Int = 1, applicationUsername: String? = nil,
        orderData: [String: String] = [:],
        success: @escaping @Sendable (Transaction) -> Void,
        failure: @escaping @Sendable (Transaction?, StoreError) -> Void,
        restored: (@Sendable (Transaction) -> Void)? = nil,
        cancelled: (@Sendable (Transaction?) -> Void)? = nil,
        deferred: (@Sendable (Transaction) -> Void)? = nil
    ) {
        Task {
            let result = await purchase(
                productID, quantity: quantity, applicationUsername: applicationUsername, orderData: orderData)
            switch result {
            case .purchased(let t) where t.state == .restored: (restored ?? success)(t)
            case .purchased(let t): success(t)
            case .pending(let t): deferred?(t)
            case .cancelled(let t):
                if let cancelled { cancelled(t) } else { failure(t, .paymentCancelled) }
            case .failed(let error, let t): failure(t, error)
            }
        }
    }

    /// Hands `payment` to the backend; a refusal is the waiting caller's outcome.
    private func submit(_ payment: Payment) async {
        do {
            _ = try await backend.add(payment)
        } catch {
            resume(payment.requestID, with: error == .paymentCancelled ? .cancelled(nil) : .failed(error, nil))
        }
    }

    /// Reports a purchase that ended before reaching the backend.
    private func finishEarly(_ result: PurchaseResult) -> PurchaseResult {
        if case .failed(let error, _) = result {
            broadcaster.send(.paymentFailed(
                Transaction(
                    transactionID: "", productID: "", productType: .consumable,
                    payment: Payment(productID: ""), state: .failed, purchaseDate: Date(timeIntervalSince1970: 0),
                    error: error),
                error))
        }
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

    // MARK: - Finishing

    /// Finishes a transaction by hand (when `finishesTransactionsAutomatically` is false).
    /// - Throws: `StoreError.unknownTransaction` if the backend no longer has it.
    public func finish(_ transaction: Transaction) async throws(StoreError) {
        try await backend.finish(transactionID: transaction.transactionID)
    }

    /// Transactions the backend still holds unfinished (for apps that finish by hand).
    public func unfinishedTransactions() async throws(StoreError) -> [Transaction] {
        try await backend.unfinishedTransactions()
    }
}
