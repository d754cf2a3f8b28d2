import Foundation

/// The in-app purchase engine: products, payments, restore, receipts, and the purchase ledger,
/// over any `StoreBackend`.
///
/// Every purchased or restored transaction goes through one pipeline: verify, record in the
/// ledger, deliver to the app, and only then finish with the backend. Recording is idempotent
/// by transaction ID, so a transaction the backend delivers again after a crash is finished
/// without being delivered twice.
///
/// Events reach the app four ways at once: the caller's `async` result or closures,
/// `StoreObserver`s, `NotificationCenter`, and the streams `events()` and
/// `transactionUpdates()`.
public actor Store {
    private let backend: any StoreBackend
    private let ledger: any PurchaseLedger
    private let configuration: StoreConfiguration
    private let broadcaster: EventBroadcaster
    /// Hosted-content downloads, when `StoreConfiguration.downloads` is set.
    public nonisolated let downloads: DownloadManager?

    private var productCache: [String: Product] = [:]
    /// Purchases awaiting their outcome in this process, by `Payment.requestID`.
    private var pendingPurchases: [String: CheckedContinuation<PurchaseResult, Never>] = [:]
    /// Transactions being handled right now, so two paths never handle one at once.
    private var inFlight: Set<String> = []
    /// Transaction IDs this process already reported as failed or deferred.
    private var reported: Set<String> = []
    private var restoreInProgress = false
    private var eventTask: Task<Void, Never>?
    private var heldStorePayments: [Payment] = []
    private var storePaymentHandler: (@Sendable (Payment, Product) -> Bool)?
    /// The last subscription state reported per group, to report only changes.
    private var reportedStatuses: [String: SubscriptionStatus.State] = [:]

    /// Makes an engine over `backend`, recording purchases in `ledger`.
    public init(
        backend: any StoreBackend, ledger: any PurchaseLedger,
        configuration: StoreConfiguration = StoreConfiguration()
    ) {
        self.backend = backend
        self.ledger = ledger
        self.configuration = configuration
        let broadcaster = EventBroadcaster(notificationCenter: configuration.notificationCenter, sender: nil)
        self.broadcaster = broadcaster
        self.downloads = configuration.downloads.map {
            DownloadManager(configuration: $0, backend: backend, broadcaster: broadcaster, clock: configuration.clock,
                            faultHook: configuration.faultHook)
        }
    }

    // MARK: - Lifecycle

    /// Attaches the engine to the backend's transaction queue, as an app adds its observer to
    /// `SKPaymentQueue` at launch. Returns once the unfinished transactions of earlier runs are
    /// handled (delivered, failed or left pending). Calling it again does nothing.
    public func start() async {
        guard eventTask == nil else { return }
        let stream = await backend.events()
        // The stream repeats this backlog first; handled transactions are recognised then.
        if let backlog = try? await backend.unfinishedTransactions() {
            for transaction in backlog where transaction.state != .purchasing {
                _ = await process(transaction)
            }
        }
        eventTask = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                await self.handle(event)
            }
        }
        await retryUnverifiedOrders()
        await publishStatusChanges()
    }

    /// Detaches from the backend and ends every stream.
    public func stop() {
        eventTask?.cancel()
        eventTask = nil
        broadcaster.finishStreams()
    }

    /// Picks up changes made by other processes sharing the backend (an approval, a refund).
    public func synchronize() async {
        await backend.synchronize()
        await publishStatusChanges()
    }

    // MARK: - Listening

    /// Adds an observer; it is held weakly.
    public nonisolated func addObserver(_ observer: any StoreObserver) { broadcaster.add(observer) }

    /// Removes an observer.
    public nonisolated func removeObserver(_ observer: any StoreObserver) { broadcaster.remove(observer) }

    /// A stream of every event the engine reports from now on.
    public nonisolated func events() -> AsyncStream<StoreEvent> { broadcaster.events() }

    /// Transactions delivered other than as the result of a `purchase` call in this process:
    /// approved Ask to Buy purchases, purchases completed after a crash, purchases made by
    /// another process. Each transaction ID appears once, ever.
    public nonisolated func transactionUpdates() -> AsyncStream<Transaction> { broadcaster.transactionUpdates() }

    /// Decides what happens to purchases started from the store (promoted products): return
    /// true to add the payment now, false to hold it until `addHeldStorePayments()`.
    public func setShouldAddStorePaymentHandler(_ handler: (@Sendable (Payment, Product) -> Bool)?) {
        storePaymentHandler = handler
    }

    /// Adds every store-started payment that the handler held back.
    public func addHeldStorePayments() async {
        let held = heldStorePayments
        heldStorePayments.removeAll()
        for payment in held { _ = try? await backend.add(payment) }
    }

    // MARK: - Products

    /// Returns the products among `identifiers`, and the identifiers the store does not sell.
    /// - Parameter useCache: answer from products fetched earlier when all are known (the
    ///   default); false asks the store again.
    /// - Throws: `StoreError` from the store.
    public func requestProducts(_ identifiers: Set<String>, useCache: Bool = true) async throws(StoreError) -> ProductsResponse {
        if useCache, identifiers.allSatisfy({ productCache[$0] != nil }) {
            let response = ProductsResponse(
                products: identifiers.sorted().compactMap { productCache[$0] }, invalidProductIdentifiers: [])
            broadcaster.send(.productsRequestFinished(response))
            return response
        }
        do {
            let response = try await backend.products(identifiers: identifiers)
            for product in response.products { productCache[product.id] = product }
            broadcaster.send(.productsRequestFinished(response))
            return response
        } catch {
            broadcaster.send(.productsRequestFailed(error))
            throw error
        }
    }

    /// `requestProducts` with RMStore-shaped closures.
    public nonisolated func requestProducts(
        _ identifiers: Set<String>, useCache: Bool = true,
        success: @escaping @Sendable (ProductsResponse) -> Void,
        failure: @escaping @Sendable (StoreError) -> Void
    ) {
        Task {
            do throws(StoreError) {
                success(try await requestProducts(identifiers, useCache: useCache))
            } catch {
                failure(error)
            }
        }
    }

    /// A product fetched earlier, if it is cached.
    public func cachedProduct(_ id: String) -> Product? { productCache[id] }

    /// Whether the account may make payments.
    public func canMakePayments() async -> Bool { await backend.canMakePayments() }

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
            pendingPurchases[payment.requestID] = continuation
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

    private func submit(_ payment: Payment) async {
        do {
            _ = try await backend.add(payment)
        } catch {
            resume(payment.requestID, with: error == .paymentCancelled ? .cancelled(nil) : .failed(error, nil))
        }
    }

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

    private func productForPurchase(_ productID: String) async throws(StoreError) -> Product {
        if let product = productCache[productID] { return product }
        let response = try await requestProducts([productID], useCache: false)
        guard let product = response.products.first(where: { $0.id == productID }) else {
            throw StoreError.productNotAvailable(productID: productID)
        }
        return product
    }

    private func resume(_ requestID: String, with result: PurchaseResult) {
        pendingPurchases.removeValue(forKey: requestID)?.resume(returning: result)
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

    // MARK: - Restore

    /// Restores the account's non-consumables and subscriptions and returns the restored
    /// transactions, each verified and recorded.
    /// - Parameter applicationUsername: restore only what this account name bought.
    /// - Throws: `StoreError` from the store.
    public func restoreTransactions(applicationUsername: String? = nil) async throws(StoreError) -> [Transaction] {
        restoreInProgress = true
        defer { restoreInProgress = false }
        let transactions: [Transaction]
        do {
            transactions = try await backend.restoreCompletedTransactions(applicationUsername: applicationUsername)
        } catch {
            broadcaster.send(.restoreFailed(error))
            throw error
        }
        var restored: [Transaction] = []
        for transaction in transactions where await process(transaction) {
            restored.append(transaction)
        }
        broadcaster.send(.restoreFinished(restored))
        return restored
    }

    /// `restoreTransactions` with closures; `cancelled` falls back to `failure`.
    public nonisolated func restoreTransactions(
        applicationUsername: String? = nil,
        success: @escaping @Sendable ([Transaction]) -> Void,
        failure: @escaping @Sendable (StoreError) -> Void,
        cancelled: (@Sendable () -> Void)? = nil
    ) {
        Task {
            do throws(StoreError) {
                success(try await restoreTransactions(applicationUsername: applicationUsername))
            } catch {
                if error == .paymentCancelled, let cancelled { cancelled() } else { failure(error) }
            }
        }
    }

    // MARK: - Receipts

    /// Asks the store for a fresh app receipt.
    /// - Throws: `StoreError` from the store.
    public func refreshReceipt() async throws(StoreError) -> Data {
        do {
            let receipt = try await backend.refreshReceipt()
            broadcaster.send(.refreshReceiptFinished(receipt))
            return receipt
        } catch {
            broadcaster.send(.refreshReceiptFailed(error))
            throw error
        }
    }

    /// `refreshReceipt` with closures.
    public nonisolated func refreshReceipt(
        success: @escaping @Sendable (Data) -> Void, failure: @escaping @Sendable (StoreError) -> Void
    ) {
        Task {
            do throws(StoreError) {
                success(try await refreshReceipt())
            } catch {
                failure(error)
            }
        }
    }

    /// The app receipt as it is now.
    public func appReceipt() async -> Data? { await backend.appReceipt() }

    // MARK: - What the user owns

    /// Whether a non-consumable or subscription was ever delivered (and not revoked).
    public func isPurchased(_ productID: String) throws -> Bool {
        try ledger.transactions().contains { $0.productID == productID && $0.revocationDate == nil }
    }

    /// The products delivered at least once.
    public func purchasedProductIDs() throws -> Set<String> {
        Set(try ledger.transactions().filter { $0.revocationDate == nil }.map(\.productID))
    }

    /// Units of a consumable bought and not yet consumed.
    public func count(of productID: String) throws -> Int { try ledger.balance(of: productID) }

    /// Uses up units of a consumable and returns the balance left.
    public func consume(_ productID: String, quantity: Int = 1) throws -> Int {
        try ledger.consume(productID: productID, quantity: quantity)
    }

    /// Every delivered transaction, oldest first.
    public func history() throws -> [Transaction] { try ledger.transactions() }

    /// Consumable balances by product ID.
    public func balances() throws -> [String: Int] { try ledger.balances() }

    // MARK: - The pipeline

    private func handle(_ event: BackendEvent) async {
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
    private func process(_ transaction: Transaction) async -> Bool {
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
            await finishWithBackend(id)
            return false
        case .purchased, .restored:
            return await deliver(transaction)
        default:
            return false
        }
    }

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
                await finishWithBackend(id)
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
            await finishWithBackend(id)
        }

        let waitingCaller = pendingPurchases[transaction.payment.requestID] != nil
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

    private func failRecording(_ transaction: Transaction, _ error: any Error) -> Bool {
        let storeError = StoreError.persistenceFailed("\(error)")
        broadcaster.send(.paymentFailed(transaction, storeError))
        resume(transaction.payment.requestID, with: .failed(storeError, transaction))
        return false
    }

    private func finishWithBackend(_ transactionID: String) async {
        // Another process may have finished it first; that is the same outcome.
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

    // MARK: - Entitlements

    /// Everything the account has at `now` (the engine's clock when nil): non-consumables,
    /// active or in-grace subscriptions, unexpired non-renewing subscriptions; never refunded
    /// or revoked items.
    public func currentEntitlements(at now: Date? = nil) async throws -> [Entitlement] {
        let records = try ledger.transactions().map(PurchaseRecord.init)
        return configuration.entitlements.currentEntitlements(
            records: records, renewalInfo: await backend.renewalInfo(), at: now ?? configuration.clock.now)
    }

    /// The status of every subscription group the account ever subscribed to, at `now`.
    public func subscriptionStatuses(at now: Date? = nil) async throws -> [SubscriptionStatus] {
        let records = try ledger.transactions().map(PurchaseRecord.init)
        return configuration.entitlements.statuses(
            records: records, renewalInfo: await backend.renewalInfo(), at: now ?? configuration.clock.now)
    }

    /// Whether a product was purchased and not refunded, from the delivered transactions.
    public func verifyPurchase(_ productID: String) throws -> PurchaseQueries.PurchaseResult {
        PurchaseQueries.verifyPurchase(productID: productID, in: try ledger.transactions().map(PurchaseRecord.init))
    }

    /// Whether any of `productIDs` is subscribed at `now`, from the delivered transactions.
    public func verifySubscriptions(
        _ kind: PurchaseQueries.SubscriptionKind, productIDs: Set<String>, at now: Date? = nil
    ) throws -> PurchaseQueries.SubscriptionResult {
        PurchaseQueries.verifySubscriptions(
            kind, productIDs: productIDs, in: try ledger.transactions().map(PurchaseRecord.init),
            at: now ?? configuration.clock.now)
    }

    /// Whether the account may still take the introductory offer of the subscription group
    /// `groupID` (StoreKit 2's `isEligibleForIntroOffer`), from the delivered transactions.
    public func isEligibleForIntroOffer(groupID: String) throws -> Bool {
        PurchaseQueries.isEligibleForIntroOffer(groupID: groupID, in: try ledger.transactions().map(PurchaseRecord.init))
    }

    /// Reports each subscription group whose state changed since it was last reported.
    private func publishStatusChanges() async {
        guard let statuses = try? await subscriptionStatuses() else { return }
        for status in statuses where reportedStatuses[status.groupID] != status.state {
            reportedStatuses[status.groupID] = status.state
            broadcaster.send(.subscriptionStatusChanged(status))
        }
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
