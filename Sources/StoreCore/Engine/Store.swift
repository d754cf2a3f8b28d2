import Foundation

/// The in-app purchase engine: products, payments, restore, receipts, and the purchase ledger,
/// over any `StoreBackend`.
///
/// Every purchased or restored transaction goes through one pipeline: verify, record in the
/// ledger, deliver to the app, and only then finish with the backend. Recording is idempotent
/// by transaction ID, so a transaction the backend delivers again after a crash is counted
/// once; until it is finished, each process announces it to the app once.
///
/// Events reach the app four ways at once: the caller's `async` result or closures,
/// `StoreObserver`s, `NotificationCenter`, and the streams `events()` and
/// `transactionUpdates()`.
///
/// One concern a file: this one holds the state, the lifecycle and the listeners;
/// `Store+Products`, `Store+Purchasing`, `Store+RestoreAndReceipts` and `Store+Entitlements`
/// are the public surface, `Store+Delivery` the pipeline. `PurchaseWaiters` holds the waiting
/// `purchase` calls, `StatusChangeTracker` decides which subscription statuses are news,
/// `WorkUnderway` holds what runs now and who waits for it.
public actor Store {
    let backend: any StoreBackend
    /// The ledger, every call to it through `LedgerAccess`.
    let ledger: LedgerAccess
    let configuration: StoreConfiguration
    /// Sends every event to the caller's observers, notifications and streams.
    let broadcaster: EventBroadcaster
    /// Hosted-content downloads, when `StoreConfiguration.downloads` is set.
    public nonisolated let downloads: DownloadManager?

    /// Products fetched so far, by ID.
    var productCache: [String: Product] = [:]
    /// The `purchase` calls awaiting their outcome in this process.
    var waiters = PurchaseWaiters()
    /// The pipelines and the backend event being handled right now: two paths never handle
    /// one transaction at once, and `synchronize()` waits for the event in hand.
    var underway = WorkUnderway()
    /// What this process already told the app, a transaction in a state each: deferred, then
    /// declined, is news twice; delivered (`.purchased`, restored ones too) is announced once a
    /// process, as StoreKit delivers a transaction again at each launch until the app finishes it.
    var reported: Set<Reported> = []
    /// Whether a restore runs: its transactions are reported as the restore's, not as updates.
    var restoreInProgress = false
    /// The options of this process's purchases still under way, by `Payment.requestID`: their
    /// own verifiers and observers, and whether their callers wait for content.
    var requestOptions: [String: PurchaseOptions] = [:]
    /// Attaching to the backend (`start()`), shared by concurrent callers.
    private var startup: Task<Void, Never>?
    private var eventTask: Task<Void, Never>?
    /// Store-started payments the handler held back.
    var heldStorePayments: [Payment] = []
    /// Decides whether a store-started payment is added now (see `setShouldAddStorePaymentHandler`).
    var storePaymentHandler: (@Sendable (Payment, Product) -> Bool)?
    /// Which subscription statuses changed since they were last reported.
    var statusChanges = StatusChangeTracker()
    /// The latest status report: each report waits for the one before it.
    var statusReport: Task<Void, Never>?

    /// Makes an engine over `backend`, recording purchases in `ledger`.
    public init(
        backend: any StoreBackend, ledger: any PurchaseLedger,
        configuration: StoreConfiguration = StoreConfiguration()
    ) {
        self.backend = backend
        self.ledger = LedgerAccess(ledger)
        self.configuration = configuration
        let broadcaster = EventBroadcaster(notificationCenter: configuration.notificationCenter, sender: nil)
        self.broadcaster = broadcaster
        self.downloads = configuration.downloads.map {
            DownloadManager(
                configuration: $0, backend: backend, broadcaster: broadcaster, clock: configuration.clock,
                faultHook: configuration.faultHook)
        }
    }

    // MARK: - Lifecycle

    /// Attaches the engine to the backend's transaction queue, as an app adds its observer to
    /// `SKPaymentQueue` at launch. Returns once the unfinished transactions of earlier runs are
    /// handled (delivered, failed or left pending). Calling it again, or while it runs, waits
    /// for the same start; `purchase` calls it when the app has not.
    public func start() async {
        if let startup { return await startup.value }
        let attaching = Task { await self.attach() }
        startup = attaching
        await attaching.value
    }

    /// Whether the engine is attached to the backend (or attaching).
    public var isStarted: Bool { startup != nil }

    /// Opens the backend's event stream, handles its backlog, then listens.
    private func attach() async {
        let stream = await backend.events()
        // The stream repeats this backlog first; handled transactions are recognised then.
        if let backlog = try? await backend.unfinishedTransactions() {
            for transaction in backlog where transaction.state != .purchasing {
                await process(transaction)
            }
        }
        eventTask = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                await self.handleInHand(event)
            }
        }
        await retryUnverifiedOrders()
        await publishStatusChanges()
    }

    /// Detaches from the backend and ends every stream.
    public func stop() {
        eventTask?.cancel()
        eventTask = nil
        startup = nil
        broadcaster.finishStreams()
    }

    /// Picks up changes made by other processes sharing the backend (an approval, a refund).
    /// Returns once the backend event being handled (what the backend announced with a
    /// purchase, such as the transactions an upgrade replaced) is recorded.
    public func synchronize() async {
        await backend.synchronize()
        await waitFor(.backendEvent)
        await publishStatusChanges()
    }

    // MARK: - Listening

    /// Adds an observer; it is held weakly.
    public nonisolated func addObserver(_ observer: any StoreObserver) { broadcaster.add(observer) }

    /// Removes an observer.
    public nonisolated func removeObserver(_ observer: any StoreObserver) { broadcaster.remove(observer) }

    /// A stream of every event the engine reports from now on.
    public nonisolated func events() -> AsyncStream<StoreEvent> { broadcaster.events() }

    /// Transactions delivered other than as the result of a `purchase` call in this process,
    /// as StoreKit 2's `Transaction.updates`: approved Ask to Buy purchases, purchases made by
    /// another process, renewals, and at each start the transactions still unfinished at the
    /// store (an earlier run killed before announcing them, or not yet finished by an app that
    /// finishes by hand), each once in this process. A transaction ID comes again when its
    /// transaction changes: refunded or revoked, its expiry moved, upgraded.
    public nonisolated func transactionUpdates() -> AsyncStream<Transaction> { broadcaster.transactionUpdates() }

    /// Decides what happens to purchases started from the store (promoted products, as
    /// `SKPaymentTransactionObserver.paymentQueue(_:shouldAddStorePayment:for:)` does): return
    /// true to add the payment now, false to hold it until `addHeldStorePayments()`. Without a
    /// handler every store-started payment is held.
    public func setShouldAddStorePaymentHandler(_ handler: (@Sendable (Payment, Product) -> Bool)?) {
        storePaymentHandler = handler
    }

    /// The store-started payments the handler held back, oldest first.
    public func heldPayments() -> [Payment] { heldStorePayments }

    /// Adds every store-started payment that the handler held back.
    public func addHeldStorePayments() async {
        let held = heldStorePayments
        heldStorePayments.removeAll()
        for payment in held { _ = try? await backend.add(payment) }
    }
}
