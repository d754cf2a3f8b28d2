import Foundation
import StoreCore

/// The local App Store: a `StoreBackend` fed by an Xcode `.storekit` catalog, with a payment
/// queue and a purchase ledger persisted in a journal on disk, settings (Ask to Buy,
/// simulated errors, interrupted purchases, latency) and a Transaction Manager.
///
/// Several instances, in one process or in several, may share one state directory: each
/// write happens under an exclusive file lock after reading the others' changes, and
/// `synchronize()` sends the others' changes on the event stream.
///
/// The actor is two things: the `StoreBackend` an app talks to
/// (`Backend/LocalAppStore+StoreBackend.swift`), and the door to the store's parts, each a
/// type in a folder of its own with its own rules: `transactionManager` (the customer-service
/// verbs), `subscriptions` (the lifecycle on the store clock), `offers` (codes and promotional
/// offers), `refundRequests`, `notifications` (the outbox), `settings`, `receipts` (the
/// signing chain and what it signs) and, for the App Store Server only, `server`. The payment
/// queue and charging (`PaymentQueue`) and hosted content (`ContentDelivery`) are parts with no
/// door of their own: the app reaches them through the `StoreBackend` surface.
///
/// The actor owns the journal, the event streams and the storefront; a part reaches them only
/// through the narrow access in this file (`state`, `transact`, `announce`, `send`,
/// `signed`), on the actor's executor: a part's door runs its body through `perform`, and
/// what other parts call while on the actor takes an `isolated LocalAppStore`.
///
/// How to add a part: make a folder named after it, holding a `Sendable` struct that keeps the
/// store (`let store: LocalAppStore`) and its door, an extension of `LocalAppStore` with one
/// `nonisolated var` that makes it; put its rules in the part's files (pure functions of the
/// `JournalState` where they can be), its records in a share of the journal (`Journal/`), and
/// every change in one `transact`. Nothing in this file changes. Docs/decisions/0060 says why.
public actor LocalAppStore: StoreBackend {
    /// What the store was made with.
    public nonisolated let configuration: LocalAppStoreConfiguration
    /// Counters of the store's disk work (`fsync`s, appends, compactions).
    public nonisolated let metrics: StoreMetrics

    private let journal: StoreJournal
    /// This instance's owner lease (`nil` when opened read-only: it owns nothing).
    private let lease: OwnerLease?
    /// The event streams of `events()`.
    private var fanOut = EventFanOut()
    /// Prices and localizes products in the current storefront and locale.
    private(set) var localizer: ProductLocalizer
    /// The payment queue's own state: its purchases waiting for their latency.
    var settlements = SettlementSchedule()
    /// The subscription lifecycle's own state: the wake-up for the next renewal.
    var renewalTimer = RenewalTimer()
    /// Signs transactions and renewal info for the engine and the App Store Server alike (its
    /// issuers loaded from the state directory on first use).
    nonisolated let signer = TransactionSigner()
    /// The state as the server view's `snapshot()` last read it, for readers off the actor.
    nonisolated let published: PublishedSnapshot
    /// Retention messaging's own state: its files beside the journal (the part is `retention`).
    nonisolated let retentionFiles: RetentionFiles

    /// Opens the store in `configuration.stateDirectory`, creating it on first use with the
    /// catalog's settings.
    /// - Throws: `LocalAppStoreError.io` or `.corrupt` when the state cannot be read.
    public init(configuration: LocalAppStoreConfiguration) throws(LocalAppStoreError) {
        if let rate = configuration.catalog.settings.timeRate, StoreTimeRate(rawValue: rate) == nil {
            // The catalog's settings block is read through the same rule as `store set time-rate`.
            throw .invalidSettingValue(
                name: "_timeRate (in \(configuration.catalog.file))", value: String(rate),
                accepted: LocalStoreSettings.definition(named: "time-rate")?.accepted ?? "a time rate")
        }
        self.configuration = configuration
        let metrics = StoreMetrics()
        self.metrics = metrics
        let directory = configuration.stateDirectory.path
        let initial = LocalStoreSettings(
            catalog: configuration.catalog.settings,
            latencyMilliseconds: configuration.initialLatencyMilliseconds)
        journal = try StoreJournal(
            directory: directory, initialSettings: initial, metrics: metrics,
            syncsWrites: configuration.syncsWrites, readOnly: configuration.readOnly,
            fileSystem: configuration.fileSystem)
        published = journal.published
        retentionFiles = RetentionFiles(
            stateDirectory: configuration.stateDirectory, fileSystem: configuration.fileSystem,
            readOnly: configuration.readOnly, syncsWrites: configuration.syncsWrites)
        lease =
            configuration.readOnly ? nil : try OwnerLease(directory: directory, fileSystem: configuration.fileSystem)
        let clock = configuration.clock
        let catalog = configuration.catalog
        // Family Sharing's shares and revokes, then the notifications of both, are consequences
        // of a write, journaled with it (Docs/decisions/0130-family-sharing.md).
        journal.consequences = { before, records in
            let now = clock.now
            let family = FamilyRules(catalog: catalog, now: now).records(before: before, writing: records)
            return family + NotificationRules(now: now).records(before: before, writing: records + family)
        }
        let storefront = configuration.storefront ?? configuration.catalog.defaultStorefront
        let locale = configuration.locale ?? configuration.catalog.settings.locale ?? storefront.locale
        localizer = ProductLocalizer(catalog: configuration.catalog, storefront: storefront, locale: locale)
    }

    deinit {
        fanOut.finishAll()
    }

    /// The catalog's products as a store opened for `storefront` and `locale` (with no setting
    /// failing product loads) returns them, in catalog order, without opening any state: what
    /// a storefront can show before its store is open.
    public static func localizedProducts(
        of catalog: StoreKitConfiguration, storefront: Storefront, locale: String
    ) -> [StoreCore.Product] {
        let localizer = ProductLocalizer(catalog: catalog, storefront: storefront, locale: locale)
        return catalog.products.map(localizer.localize)
    }

    // MARK: - Verifiers for the app's Store

    /// A verifier that checks each purchase against this store's app receipt, as RMStore's
    /// `RMStoreAppReceiptVerifier` does, refreshing the receipt once when it lacks the purchase:
    /// `StoreConfiguration(verifier: try await appStore.receiptVerifier())`.
    /// - Parameter verificationDate: when to check the certificates; nil checks each receipt at
    ///   its creation date.
    /// - Throws: `LocalAppStoreError.io` naming the certificates directory when the chain cannot
    ///   be made or read.
    public func receiptVerifier(verificationDate: Date? = nil) async throws(LocalAppStoreError) -> AppReceiptVerifier {
        try await receipts.receiptVerifier(verificationDate: verificationDate)
    }

    /// A verifier of the StoreKit 2 signed transactions (JWS) this store issues, trusting its
    /// root and the environment it signs for: `StoreConfiguration(verifier:)`.
    /// - Throws: `LocalAppStoreError.io` naming the certificates directory when the chain cannot
    ///   be made or read.
    public func signedTransactionVerifier() async throws(LocalAppStoreError) -> SignedTransactionVerifier {
        try await receipts.signedTransactionVerifier()
    }

    /// A verifier of the app transactions this store signs (`StoreConfiguration(appTransactionVerifier:)`):
    /// its root, bundle ID and environment, and this device's identifier for the device
    /// verification hash.
    /// - Throws: `LocalAppStoreError.io` naming the certificates directory when the chain cannot
    ///   be made or read, or the device identifier's file when it cannot be read.
    public func appTransactionVerifier() async throws(LocalAppStoreError) -> AppTransactionVerifier {
        try await receipts.appTransactionVerifier()
    }

    // MARK: - Keeping up with other processes

    /// Changes whenever the store's journal does, in this process or another; read it after
    /// `synchronize()` to learn whether anything happened since the last look.
    public var revision: Int { journal.revision }

    /// Reads the changes other processes made (an approval, a purchase) and sends them on
    /// the event stream; processes transactions a dead process left `.purchasing`.
    public func synchronize() async {
        refreshForNonThrowingCaller()
        // A read-only store shows the state as it was written: it settles and renews nothing.
        guard !configuration.readOnly else { return }
        PaymentQueue.adoptAbandoned(in: self)
        Subscriptions.advance(in: self)
    }

    /// Reads other processes' changes to the journal and announces them.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    func refresh() throws(LocalAppStoreError) {
        announce(try journal.refresh())
        RefundRequests.deliverDecisions(in: self)
    }

    /// `refresh()` for the operations whose signature cannot throw (`canMakePayments()`,
    /// `events()`, `synchronize()`, `renewalInfo()`): they answer from the state last read when
    /// the journal cannot be read now, and the next operation that throws reports the failure.
    func refreshForNonThrowingCaller() {
        if let changed = try? journal.refresh() { announce(changed) }
        RefundRequests.deliverDecisions(in: self)
    }

    // MARK: - The journal, for the parts

    /// Runs `body` on the store's executor: how a part's door reaches the journal and the
    /// event streams. `body` must not wait for anything (it holds the store).
    func perform<T: Sendable, Failure: Error>(
        _ body: @Sendable (isolated LocalAppStore) throws(Failure) -> T
    ) throws(Failure) -> T {
        try body(self)
    }

    /// The journal's state as last read (`refresh()` reads other processes' changes first).
    var state: JournalState { journal.state }

    /// The signed-in account's ID.
    nonisolated var accountID: String { configuration.account.id }

    /// This instance's owner token, which its `.purchasing` transactions carry (nil when read-only).
    var ownerToken: String? { lease?.token }

    /// Moves the entries `body` drafts straight into the compacted history in one compaction
    /// (`StoreJournal.importIntoHistory`); announces nothing.
    /// - Returns: `body`'s result.
    func importIntoHistory<T>(
        _ body: (inout JournalState) throws(LocalAppStoreError) -> (entries: [QueueEntry], result: T)
    ) throws(LocalAppStoreError) -> T {
        try journal.importIntoHistory(body)
    }

    /// Journals what `body` drafts on the up-to-date state (under the write lock, see
    /// `StoreJournal.transact`), in one durable write (unless `sync` is false); announces nothing.
    /// - Returns: `body`'s result and the changed entries, other processes' included.
    func transact<T>(
        sync: Bool = true,
        _ body: (inout JournalState) throws(LocalAppStoreError) -> (records: [JournalRecord], result: T)
    ) throws(LocalAppStoreError) -> (result: T, changed: [QueueEntry]) {
        try journal.transact(sync: sync, body)
    }

    /// `transact`, then announces every changed entry.
    /// - Returns: `body`'s result and the changed entries.
    func transactAndAnnounce<T>(
        sync: Bool = true,
        _ body: (inout JournalState) throws(LocalAppStoreError) -> (records: [JournalRecord], result: T)
    ) throws(LocalAppStoreError) -> (result: T, changed: [QueueEntry]) {
        let (result, changed) = try journal.transact(sync: sync, body)
        announce(changed)
        return (result, changed)
    }

    /// `value`, unless reading the compacted history to make it failed (see `StoreJournal.checked`).
    func checked<T>(_ value: T) throws(LocalAppStoreError) -> T {
        try journal.checked(value)
    }

    /// Where the journal's state was read up to, for the server view's snapshots.
    /// - Returns: the publication number of the state as it is now (`PublishedSnapshot.publish`).
    func publishState() -> UInt64 {
        published.publish(journal.state, inode: journal.inode, length: journal.offset)
    }

    /// Moves to `storefront` and `locale`: products are priced and localized anew.
    /// - Returns: whether the storefront changed (the locale alone does not count).
    func relocalize(storefront: Storefront, locale: String) -> Bool {
        let moved = storefront != localizer.storefront
        localizer = ProductLocalizer(catalog: configuration.catalog, storefront: storefront, locale: locale)
        return moved
    }

    // MARK: - Events

    /// Whether any event stream listens.
    var hasListeners: Bool { !fanOut.isEmpty }

    /// Sends `event` on every stream.
    func send(_ event: BackendEvent) {
        fanOut.send(event)
    }

    /// Sends changed entries of the account on every stream: finished ones as removed,
    /// others (except `.purchasing`) as updated (see `EventFanOut.announcement`).
    func announce(_ changed: [QueueEntry]) {
        guard !changed.isEmpty, !fanOut.isEmpty else { return }
        let (updated, removed) = EventFanOut.announcement(of: changed, accountID: accountID)
        fanOut.send(updated: signed(updated), removed: removed)
    }

    /// Announces changed entries, and sends finished ones whose transaction changed (a refund,
    /// an early expiry) as updates too, so the app sees the new version.
    func announceRevisions(_ changed: [QueueEntry]) {
        announce(changed)
        let revised = EventFanOut.revisions(in: changed, accountID: accountID)
        guard !revised.isEmpty else { return }
        fanOut.send(.transactionsUpdated(signed(revised)))
    }

    /// Starts an event stream, forgotten when its reader goes away.
    func makeEventStream() -> (
        stream: AsyncStream<BackendEvent>, continuation: AsyncStream<BackendEvent>.Continuation
    ) {
        fanOut.makeStream { [weak self] id in
            Task { await self?.removeListener(id) }
        }
    }

    /// Forgets an event stream whose reader went away.
    private func removeListener(_ id: UUID) {
        fanOut.remove(id)
    }

    /// `transactions` with their StoreKit 2 signed transaction (JWS, ES256, `x5c` chain),
    /// signed now as the App Store signs on each request.
    func signed(_ transactions: [StoreCore.Transaction]) -> [StoreCore.Transaction] {
        receipts.signed(transactions, settings: journal.state.settings, now: configuration.clock.now)
    }
}
