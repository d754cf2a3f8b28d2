import Foundation

/// The store the engine drives, as RMStore drives `SKPaymentQueue`: the local App Store here,
/// StoreKit on Apple platforms. The engine never knows which one it talks to.
///
/// A backend keeps a persistent queue of unfinished transactions: a transaction stays in it
/// until the engine calls `finish`, across the death of the process.
public protocol StoreBackend: AnyObject, Sendable {
    /// Returns the products the store sells among `identifiers`, localized for the backend's
    /// storefront and locale, and the identifiers it does not sell.
    /// - Throws: `StoreError` (for example a simulated load-products failure).
    func products(identifiers: Set<String>) async throws(StoreError) -> ProductsResponse

    /// Whether the signed-in account may make payments.
    func canMakePayments() async -> Bool

    /// Adds a payment to the queue and returns its transaction in state `.purchasing`; the
    /// later states (purchased, failed, deferred) arrive on the event stream.
    /// - Throws: `StoreError` if the payment cannot even be queued.
    func add(_ payment: Payment) async throws(StoreError) -> Transaction

    /// Starts the event stream. The stream first carries every unfinished transaction in the
    /// queue that is not `.purchasing` (purchased, failed, restored, deferred), then live changes.
    /// Each call returns a new stream; the engine calls it once.
    func events() async -> AsyncStream<BackendEvent>

    /// Every transaction still in the queue.
    func unfinishedTransactions() async throws(StoreError) -> [Transaction]

    /// Removes a transaction from the queue: the app has delivered it.
    /// - Throws: `StoreError.unknownTransaction` when it is not in the queue.
    func finish(transactionID: String) async throws(StoreError)

    /// Returns the account's purchases StoreKit 1's restore brings back (non-consumables and
    /// auto-renewable subscriptions; never consumables or non-renewing subscriptions) as
    /// `.restored` transactions, for `applicationUsername` when given.
    func restoreCompletedTransactions(applicationUsername: String?) async throws(StoreError) -> [Transaction]

    /// Returns the account's purchases a restore of `scope` brings back as `.restored`
    /// transactions, for `applicationUsername` when given: `.completedTransactions` is
    /// `restoreCompletedTransactions(applicationUsername:)`, `.sync` (StoreKit 2's
    /// `AppStore.sync()`) adds non-renewing subscriptions. By default every scope restores
    /// what `restoreCompletedTransactions(applicationUsername:)` does (a StoreKit 1 queue has
    /// no other restore), so a backend written before scopes keeps working unchanged.
    func restoreCompletedTransactions(
        applicationUsername: String?, scope: RestoreScope
    ) async throws(StoreError) -> [Transaction]

    /// Asks the store for a fresh app receipt and returns it.
    func refreshReceipt() async throws(StoreError) -> Data

    /// The app receipt as it is now, if there is one.
    func appReceipt() async -> Data?

    /// Looks for changes made by other processes sharing the store's state (an approval, a
    /// refund) and sends them on the event stream.
    func synchronize() async

    /// The store's renewal info for every subscription of the account.
    func renewalInfo() async -> [RenewalInfo]

    /// The signed app transaction (JWS) of the signed-in account on this device, as StoreKit 2's
    /// `AppTransaction.shared` fetches it.
    /// - Parameter refresh: ask the store for a new one (`AppTransaction.refresh()`) rather than
    ///   one it may keep.
    /// - Throws: `StoreError` when the store cannot issue one (by default: it issues none).
    func signedAppTransaction(refresh: Bool) async throws(StoreError) -> String

    /// The storefront the account buys in now (StoreKit 2's `Storefront.current`); changes
    /// arrive on the event stream as `.storefrontChanged`. Nil when unknown (the default).
    func currentStorefront() async -> Storefront?

    /// Asks the store to refund a transaction of the account (StoreKit 2's
    /// `Transaction.beginRefundRequest`); the decision arrives later on the event stream as
    /// `.refundRequestDecided`. By default the store takes no refund requests.
    /// - Throws: `.duplicateRequest` when one was made already; `.failed` otherwise.
    func beginRefundRequest(transactionID: String) async throws(RefundRequestError) -> RefundRequestStatus

    /// The product an offer code is for (StoreKit 2's offer code redemption sheet checks the
    /// code first); the purchase then carries the code in `Payment.offerCode`. By default the
    /// store issues no codes.
    /// - Throws: `StoreError.invalidOfferIdentifier` for an unknown code, `.ineligibleForOffer`
    ///   for a code redeemed already.
    func productForOfferCode(_ code: String) async throws(StoreError) -> String

    /// The manifest of `productID`'s hosted content, `nil` when it has none (the default).
    /// - Throws: `StoreError` when the store cannot be asked.
    func contentManifest(productID: String) async throws(StoreError) -> ContentManifest?

    /// The bytes of one file of hosted content from byte `offset` on, pulled chunk by chunk.
    /// The stream throws a `DownloadError` when the transfer fails.
    func contentBytes(
        productID: String, version: String, path: String, offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error>

    /// The account's purchased and restored transactions the app finished, oldest first, so
    /// the engine can tell a ledger that lost some (`Store.auditLedger()`); nil when the store
    /// cannot say (StoreKit 1 cannot).
    func finishedTransactions() async throws(StoreError) -> [Transaction]?

    /// The digest of `finishedTransactions()`' IDs, kept as they change so that it costs the
    /// same whatever the history's length; nil when the store keeps none (the audit then
    /// compares the lists in full).
    func finishedTransactionsDigest() async throws(StoreError) -> TransactionDigest?
}

extension StoreBackend {
    /// A backend with one restore gives it for every scope.
    public func restoreCompletedTransactions(
        applicationUsername: String?, scope: RestoreScope
    ) async throws(StoreError) -> [Transaction] {
        try await restoreCompletedTransactions(applicationUsername: applicationUsername)
    }

    /// A backend without subscriptions has no renewal info.
    public func renewalInfo() async -> [RenewalInfo] { [] }

    /// A backend that does not know its storefront says nil.
    public func currentStorefront() async -> Storefront? { nil }

    /// A backend that takes no refund requests fails them.
    public func beginRefundRequest(transactionID: String) async throws(RefundRequestError) -> RefundRequestStatus {
        throw .failed("this store takes no refund requests")
    }

    /// A backend that issues no offer codes knows none.
    public func productForOfferCode(_ code: String) async throws(StoreError) -> String {
        throw .invalidOfferIdentifier("this store issues no offer codes")
    }

    /// A backend that issues no app transaction says so.
    public func signedAppTransaction(refresh: Bool) async throws(StoreError) -> String {
        throw .systemError("this store issues no app transaction")
    }

    /// A backend that cannot list what the app finished.
    public func finishedTransactions() async throws(StoreError) -> [Transaction]? { nil }

    /// A backend that keeps no digest says nil.
    public func finishedTransactionsDigest() async throws(StoreError) -> TransactionDigest? { nil }
}
