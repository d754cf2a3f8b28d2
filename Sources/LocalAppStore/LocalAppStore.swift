import Foundation
import StoreCore

/// The local App Store: a `StoreBackend` fed by an Xcode `.storekit` catalog, with a payment
/// queue and a purchase ledger persisted in a journal on disk, settings (Ask to Buy,
/// simulated errors, interrupted purchases, latency) and a transaction manager.
///
/// Several instances, in one process or in several, may share one state directory: each
/// write happens under an exclusive file lock after reading the others' changes, and
/// `synchronize()` sends the others' changes on the event stream.
///
/// The actor owns the state and composes the parts, one concern a file: the `StoreBackend`
/// surface (`LocalAppStore+StoreBackend.swift`), settling purchases
/// (`LocalAppStore+Settlement.swift`, deciding through `ChargingRules`), the Transaction
/// Manager (`LocalAppStore+TransactionManager.swift`, `+SubscriptionCommands.swift`),
/// settings (`LocalAppStore+Settings.swift`), subscriptions on the store clock
/// (`LocalAppStore+Subscriptions.swift`), receipts and content; events go out through
/// `EventFanOut`, signatures come from `TransactionSigner`.
public actor LocalAppStore: StoreBackend {
    /// What the store was made with.
    public nonisolated let configuration: LocalAppStoreConfiguration
    /// Counters of the store's disk work (`fsync`s, appends, compactions).
    public nonisolated let metrics: StoreMetrics

    let journal: StoreJournal
    /// This instance's owner lease (`nil` when opened read-only: it owns nothing).
    let lease: OwnerLease?
    var localizer: ProductLocalizer
    /// The event streams of `events()`.
    var fanOut = EventFanOut()
    /// This instance's `.purchasing` transactions whose settling is scheduled (waiting for latency).
    var scheduled: Set<String> = []
    /// This instance's purchases it declined without being able to journal the decline (see
    /// `decline(_:because:)`): it never settles them itself; the next start does.
    var declinedUnwritten: Set<String> = []
    /// Wakes the store when the next subscription period, grace or billing retry ends.
    var renewalTimer: Task<Void, Never>?
    /// Signs transactions and renewal info for the engine and the App Store Server alike (its
    /// issuers loaded from the state directory on first use).
    nonisolated let signer = TransactionSigner()
    /// The state as `snapshot()` last read it, for `currentSnapshot()` off the actor.
    nonisolated let published: PublishedSnapshot
    /// Retention messaging: images, messages, default messages and realtime URLs uploaded
    /// through Apple's Retention Messaging API, kept in their own files beside the journal.
    public nonisolated let retention: RetentionMessaging

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
        retention = RetentionMessaging(configuration: configuration)
        lease =
            configuration.readOnly ? nil : try OwnerLease(directory: directory, fileSystem: configuration.fileSystem)
        let clock = configuration.clock
        journal.consequences = { before, records in
            NotificationRules(now: clock.now).records(before: before, writing: records)
        }
        let storefront = configuration.storefront ?? configuration.catalog.defaultStorefront
        let locale = configuration.locale ?? configuration.catalog.settings.locale ?? storefront.locale
        localizer = ProductLocalizer(catalog: configuration.catalog, storefront: storefront, locale: locale)
    }

    deinit {
        fanOut.finishAll()
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
        adoptAbandoned()
        advanceSubscriptions()
    }

    /// Reads other processes' changes to the journal and announces them.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    func refresh() throws(LocalAppStoreError) {
        announce(try journal.refresh())
        deliverRefundDecisions()
    }

    /// `refresh()` for the operations whose signature cannot throw (`canMakePayments()`,
    /// `events()`, `synchronize()`, `renewalInfo()`): they answer from the state last read when
    /// the journal cannot be read now, and the next operation that throws reports the failure.
    func refreshForNonThrowingCaller() {
        if let changed = try? journal.refresh() { announce(changed) }
        deliverRefundDecisions()
    }

    /// Journals what `body` drafts on the up-to-date state (under the write lock, see
    /// `StoreJournal.transact`) and announces every change, other processes' included.
    /// - Returns: `body`'s result and the changed entries.
    func transactAndAnnounce<T>(
        sync: Bool = true,
        _ body: (inout JournalState) throws(LocalAppStoreError) -> (records: [JournalRecord], result: T)
    ) throws(LocalAppStoreError) -> (result: T, changed: [QueueEntry]) {
        let (result, changed) = try journal.transact(sync: sync, body)
        announce(changed)
        return (result, changed)
    }

    // MARK: - Rules for a change made now

    /// The charging rules for a change made at `now`, pricing in the current storefront.
    func chargingRules(at now: Date) -> ChargingRules {
        ChargingRules(localizer: localizer, now: now)
    }

    /// The subscription rules for a change made at `now` under `state`'s settings.
    func subscriptionDesk(for state: JournalState, at now: Date) -> SubscriptionDesk {
        chargingRules(at: now).subscriptionDesk(for: state)
    }

    // MARK: - Events

    /// Sends changed entries of the account on every stream: finished ones as removed,
    /// others (except `.purchasing`) as updated (see `EventFanOut.announcement`).
    func announce(_ changed: [QueueEntry]) {
        guard !changed.isEmpty, !fanOut.isEmpty else { return }
        let (updated, removed) = EventFanOut.announcement(of: changed, accountID: configuration.account.id)
        fanOut.send(updated: signed(updated), removed: removed)
    }

    /// Announces changed entries, and sends finished ones whose transaction changed (a refund,
    /// an early expiry) as updates too, so the app sees the new version.
    func announceRevisions(_ changed: [QueueEntry]) {
        announce(changed)
        let revised = EventFanOut.revisions(in: changed, accountID: configuration.account.id)
        guard !revised.isEmpty else { return }
        fanOut.send(.transactionsUpdated(signed(revised)))
    }

    /// Forgets an event stream whose reader went away.
    func removeListener(_ id: UUID) {
        fanOut.remove(id)
    }

    /// `transactions` with their StoreKit 2 signed transaction (JWS, ES256, `x5c` chain),
    /// signed now as the App Store signs on each request.
    func signed(_ transactions: [StoreCore.Transaction]) -> [StoreCore.Transaction] {
        signed(transactions, settings: journal.state.settings, now: configuration.clock.now)
    }

    // MARK: - The account's entries

    /// Every entry of the account, finished or not, oldest first (the whole history is read).
    /// - Throws: `.corrupt` or `.io` when the compacted history cannot be read.
    func accountEntries() throws(LocalAppStoreError) -> [QueueEntry] {
        let account = configuration.account.id
        return try journal.checked(journal.state.orderedEntries.filter { $0.accountID == account })
    }

    /// The account's unfinished transactions, oldest first.
    func unfinished() -> [StoreCore.Transaction] {
        let account = configuration.account.id
        return journal.state.unfinishedEntries.filter { $0.accountID == account }.map(\.transaction)
    }
}
