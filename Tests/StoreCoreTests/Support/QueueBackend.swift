import Foundation
import StoreTesting

@testable import StoreCore

/// An in-memory backend with `SKPaymentQueue` semantics, scripted per product, for testing the
/// engine's own rules. (The real backend, LocalAppStore, has its own integration tests.)
actor QueueBackend: StoreBackend {
    enum Outcome: Sendable {
        case purchase, deferred
        case fail(StoreError)
    }

    private(set) var queue: [String: Transaction] = [:]
    private(set) var finished: [String] = []
    private(set) var productRequests = 0
    private var nextID = 1000
    private var continuation: AsyncStream<BackendEvent>.Continuation?
    var outcomes: [String: Outcome] = [:]
    var owned: [Transaction] = []
    let catalog: [Product]
    /// Hosted content by product ID (see `QueueBackend+Content.swift`).
    var hostedContent: [String: HostedContent] = [:]
    /// When set, each content chunk waits one second of this clock (a slow network).
    var contentGate: ManualClock?
    /// Content requests as (path, offset), in order.
    var contentRequests: [ContentRequest] = []
    /// Serving fails once a file's offset reaches this many bytes.
    var contentFailsAt: Int64?

    init(products: [Product] = QueueBackend.demoProducts) { catalog = products }

    static let demoProducts: [Product] = [
        Product(
            id: "coins", type: .consumable, displayName: "Coins", description: "100 coins",
            price: 0.99, displayPrice: "$0.99", currencyCode: "USD"),
        Product(
            id: "pro", type: .nonConsumable, displayName: "Pro", description: "Everything",
            price: 4.99, displayPrice: "$4.99", currencyCode: "USD"),
    ]

    func setOutcome(_ outcome: Outcome, for productID: String) { outcomes[productID] = outcome }

    func products(identifiers: Set<String>) async throws(StoreError) -> ProductsResponse {
        productRequests += 1
        let found = catalog.filter { identifiers.contains($0.id) }
        let missing = identifiers.subtracting(found.map(\.id)).sorted()
        return ProductsResponse(products: found, invalidProductIdentifiers: missing)
    }

    func canMakePayments() async -> Bool { true }

    func add(_ payment: Payment) async throws(StoreError) -> Transaction {
        nextID += 1
        let product = catalog.first { $0.id == payment.productID }
        var t = Transaction(
            transactionID: String(nextID), productID: payment.productID,
            productType: product?.type ?? .consumable, payment: payment, state: .purchasing,
            purchaseDate: Date(timeIntervalSince1970: Double(nextID)))
        queue[t.transactionID] = t
        let purchasing = t
        switch outcomes[payment.productID] ?? .purchase {
        case .purchase: t.state = .purchased
        case .deferred: t.state = .deferred
        case .fail(let error):
            t.state = .failed
            t.error = error
        }
        queue[t.transactionID] = t
        continuation?.yield(.transactionsUpdated([t]))
        return purchasing
    }

    func events() async -> AsyncStream<BackendEvent> {
        let (stream, continuation) = AsyncStream<BackendEvent>.makeStream()
        self.continuation = continuation
        let unfinished = queue.values.filter { $0.state != .purchasing }.sorted { $0.transactionID < $1.transactionID }
        if !unfinished.isEmpty { continuation.yield(.transactionsUpdated(unfinished)) }
        return stream
    }

    func unfinishedTransactions() async throws(StoreError) -> [Transaction] {
        queue.values.sorted { $0.transactionID < $1.transactionID }
    }

    func finish(transactionID: String) async throws(StoreError) {
        guard let t = queue.removeValue(forKey: transactionID) else { throw .unknownTransaction(transactionID) }
        finished.append(transactionID)
        if t.state == .purchased, t.productType != .consumable { owned.append(t) }
        if t.state == .purchased || t.state == .restored { finishedLog.append(t) }
    }

    /// The purchased and restored transactions finished, oldest first; listed to the engine
    /// (`finishedTransactions()`, with a digest) only when `listsFinished` is on.
    private(set) var finishedLog: [Transaction] = []
    var listsFinished = false
    /// How many times the engine read the whole list.
    private(set) var finishedListReads = 0
    func setListsFinished(_ on: Bool) { listsFinished = on }

    func finishedTransactions() async throws(StoreError) -> [Transaction]? {
        guard listsFinished else { return nil }
        finishedListReads += 1
        return finishedLog
    }

    func finishedTransactionsDigest() async throws(StoreError) -> TransactionDigest? {
        listsFinished ? TransactionDigest(ids: finishedLog.map(\.transactionID)) : nil
    }

    /// Whether a restore also brings back purchases not finished yet (as the App Store does,
    /// and the local store: the purchase is owned once charged).
    var restoresUnfinished = false
    func setRestoresUnfinished(_ on: Bool) { restoresUnfinished = on }

    func restoreCompletedTransactions(applicationUsername: String?) async throws(StoreError) -> [Transaction] {
        var restored: [Transaction] = []
        let unfinished =
            restoresUnfinished
            ? queue.values.filter { $0.state == .purchased && $0.productType != .consumable }.sorted {
                $0.transactionID < $1.transactionID
            }
            : []
        for original in owned + unfinished
        where applicationUsername == nil || original.payment.applicationUsername == applicationUsername {
            nextID += 1
            let t = Transaction(
                transactionID: String(nextID), originalTransactionID: original.transactionID,
                productID: original.productID, productType: original.productType, payment: original.payment,
                state: .restored, purchaseDate: Date(timeIntervalSince1970: Double(nextID)),
                originalPurchaseDate: original.purchaseDate)
            queue[t.transactionID] = t
            restored.append(t)
        }
        continuation?.yield(.transactionsUpdated(restored))
        return restored
    }

    func refreshReceipt() async throws(StoreError) -> Data { Data("receipt".utf8) }
    func appReceipt() async -> Data? { Data("receipt".utf8) }
    func synchronize() async {}

    /// Puts a transaction straight into the queue, as a store that charged before a crash.
    func inject(_ transaction: Transaction) {
        queue[transaction.transactionID] = transaction
        continuation?.yield(.transactionsUpdated([transaction]))
    }

    /// Approves a deferred transaction.
    func approve(_ id: String) {
        guard var t = queue[id] else { return }
        t.state = .purchased
        queue[id] = t
        continuation?.yield(.transactionsUpdated([t]))
    }

    /// Declines a deferred transaction: it fails as cancelled (Ask to Buy's decline).
    func decline(_ id: String) {
        guard var t = queue[id] else { return }
        t.state = .failed
        t.error = .paymentCancelled
        queue[id] = t
        continuation?.yield(.transactionsUpdated([t]))
    }

    /// The storefront `currentStorefront()` answers (nil: the protocol's default is not used
    /// here, the backend just does not know).
    var storefront: Storefront?

    func currentStorefront() async -> Storefront? { storefront }

    /// Moves the account to `storefront` and says so on the event stream.
    func move(to storefront: Storefront) {
        self.storefront = storefront
        continuation?.yield(.storefrontChanged(storefront))
    }

    /// Ends the event stream, as a process that dies.
    func detach() {
        continuation?.finish()
        continuation = nil
    }
}
