import Catalog
import Foundation
import StoreCore

/// The local App Store: a `StoreBackend` fed by an Xcode `.storekit` catalog, with a payment
/// queue and a purchase ledger persisted in a journal on disk, settings (Ask to Buy,
/// simulated errors, interrupted purchases, latency) and a transaction manager.
///
/// Several instances, in one process or in several, may share one state directory: each
/// write happens under an exclusive file lock after reading the others' changes, and
/// `synchronize()` sends the others' changes on the event stream.
public actor LocalAppStore: StoreBackend {
    /// What the store was made with.
    public nonisolated let configuration: LocalAppStoreConfiguration
    /// Counters of the store's disk work (`fsync`s, appends, compactions).
    public nonisolated let metrics: StoreMetrics

    let journal: StoreJournal
    private let lease: OwnerLease
    var localizer: ProductLocalizer
    var listeners: [UUID: AsyncStream<BackendEvent>.Continuation] = [:]
    /// This instance's `.purchasing` transactions whose settling is scheduled (waiting for latency).
    private var scheduled: Set<String> = []
    /// Wakes the store when the next subscription period, grace or billing retry ends.
    var renewalTimer: Task<Void, Never>?
    /// Signs transactions and renewal info (loaded from the state directory on first use).
    var signer: LocalReceiptIssuer?
    /// The JWS of each transaction version this instance signed, so a version keeps one.
    var signatures: [String: (version: StoreCore.Transaction, jws: String)] = [:]

    /// Opens the store in `configuration.stateDirectory`, creating it on first use with the
    /// catalog's settings.
    /// - Throws: `LocalAppStoreError.io` or `.corrupt` when the state cannot be read.
    public init(configuration: LocalAppStoreConfiguration) throws(LocalAppStoreError) {
        self.configuration = configuration
        let metrics = StoreMetrics()
        self.metrics = metrics
        let directory = configuration.stateDirectory.path
        let initial = LocalStoreSettings(
            catalog: configuration.catalog.settings,
            latencyMilliseconds: configuration.initialLatencyMilliseconds)
        journal = try StoreJournal(
            directory: directory, initialSettings: initial, metrics: metrics,
            syncsWrites: configuration.syncsWrites)
        lease = try OwnerLease(directory: directory)
        let storefront = configuration.storefront ?? configuration.catalog.defaultStorefront
        let locale = configuration.locale ?? configuration.catalog.settings.locale ?? storefront.locale
        localizer = ProductLocalizer(catalog: configuration.catalog, storefront: storefront, locale: locale)
    }

    deinit {
        for continuation in listeners.values { continuation.finish() }
    }

    // MARK: - StoreBackend: products

    /// Returns the catalog's products among `identifiers`, localized for the current
    /// storefront and locale; the others in `invalidProductIdentifiers`.
    /// - Throws: the simulated load-products error when that setting is on.
    public func products(identifiers: Set<String>) async throws(StoreError) -> ProductsResponse {
        try pullOrThrow()
        await pause()
        if let failure = journal.state.settings.failLoadProducts { throw failure.storeError() }
        var products: [StoreCore.Product] = []
        var invalid: [String] = []
        for id in identifiers.sorted() {
            if let product = configuration.catalog.product(id: id) {
                products.append(localizer.localize(product))
            } else {
                invalid.append(id)
            }
        }
        return ProductsResponse(products: products, invalidProductIdentifiers: invalid)
    }

    /// Whether the `payments-allowed` setting is on.
    public func canMakePayments() async -> Bool {
        pull()
        return journal.state.settings.paymentsAllowed
    }

    // MARK: - StoreBackend: the queue

    /// Queues a payment and returns its transaction in state `.purchasing`; after the
    /// latency, the store charges it (or defers or fails it, as the settings say) and sends
    /// the new state on the event stream.
    ///
    /// A payment whose `requestID` is already queued returns that transaction again: a
    /// payment is never charged twice.
    /// - Throws: `.paymentNotAllowed`, `.productNotAvailable`, `.paymentInvalid` (bad quantity
    ///   or offer), `.systemError` when the state cannot be written.
    public func add(_ payment: Payment) async throws(StoreError) -> StoreCore.Transaction {
        try pullOrThrow()
        guard journal.state.settings.paymentsAllowed else { throw .paymentNotAllowed }
        guard let product = configuration.catalog.product(id: payment.productID) else {
            throw .productNotAvailable(productID: payment.productID)
        }
        let type = ProductLocalizer.type(of: product.kind)
        guard payment.quantity >= 1, payment.quantity <= 10 else {
            throw .paymentInvalid("quantity \(payment.quantity) is outside 1…10")
        }
        guard payment.quantity == 1 || type == .consumable else {
            throw .paymentInvalid("only consumables can be bought more than one at a time")
        }
        if let offerID = payment.offerID,
            !(product.subscription?.promotionalOffers.contains { $0.id == offerID } ?? false) {
            throw .paymentInvalid("\(payment.productID) has no promotional offer \(offerID)")
        }
        let account = configuration.account.id
        let price = localizer.price(of: product)
        let storefront = localizer.storefront.code
        let now = configuration.clock.now
        let token = lease.token
        let (entry, _) = try transactOrThrow { state throws(LocalAppStoreError) in
            if let existing = state.entry(requestID: payment.requestID), existing.accountID == account {
                return ([], existing)
            }
            let transaction = StoreCore.Transaction(
                transactionID: state.allocateTransactionID(), productID: payment.productID, productType: type,
                payment: payment, state: .purchasing, purchaseDate: now, price: price.amount,
                currencyCode: price.currencyCode, storefront: storefront,
                subscriptionGroupID: product.subscription?.groupID,
                offerType: payment.offerID == nil ? nil : .promotional, offerID: payment.offerID)
            let entry = QueueEntry(
                transaction: transaction, accountID: account, charged: false, finished: false, pending: nil, owner: token)
            return ([JournalRecord.make(entry)], entry)
        }
        if entry.transaction.state == .purchasing && entry.owner == token {
            let id = entry.id
            let clock = configuration.clock
            let delay = latency
            scheduled.insert(id)
            Task { [weak self] in
                try? await clock.sleep(for: delay)
                await self?.settle(id)
            }
        }
        return entry.transaction
    }

    /// Starts an event stream: first every unfinished transaction that is not `.purchasing`,
    /// then live changes. Transactions left `.purchasing` by a dead process are processed now.
    public func events() async -> AsyncStream<BackendEvent> {
        pull()
        let (stream, continuation) = AsyncStream<BackendEvent>.makeStream()
        let id = UUID()
        listeners[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeListener(id) }
        }
        let waiting = unfinished().filter { $0.state != .purchasing }
        if !waiting.isEmpty { continuation.yield(.transactionsUpdated(signed(waiting))) }
        adoptAbandoned()
        advanceSubscriptions()
        return stream
    }

    /// Every unfinished transaction of the account, oldest first.
    public func unfinishedTransactions() async throws(StoreError) -> [StoreCore.Transaction] {
        try pullOrThrow()
        return signed(unfinished())
    }

    /// Removes a transaction from the queue (it stays in the history).
    /// - Throws: `.unknownTransaction` when it is not in the queue; `.paymentInvalid` (naming
    ///   it) when it is still `.purchasing`.
    public func finish(transactionID: String) async throws(StoreError) {
        let account = configuration.account.id
        // Not synced: if a crash loses the finish, the transaction is delivered again and the
        // engine, which recorded it, finishes it again.
        _ = try transactOrThrow(sync: false) { state throws(LocalAppStoreError) in
            guard var entry = state.entries[transactionID], entry.accountID == account, !entry.finished else {
                throw .unknownTransaction(transactionID)
            }
            guard entry.transaction.state != .purchasing else {
                throw .notPending(transactionID: transactionID, state: "purchasing", expected: "finishable")
            }
            entry.finished = true
            return ([JournalRecord.make(entry)], ())
        }
    }

    // MARK: - StoreBackend: restore and receipts

    /// Returns the account's non-consumables and subscriptions as new `.restored`
    /// transactions (queued until finished), for `applicationUsername` when given.
    /// - Throws: the simulated restore error when that setting is on.
    public func restoreCompletedTransactions(
        applicationUsername: String?
    ) async throws(StoreError) -> [StoreCore.Transaction] {
        try pullOrThrow()
        await pause()
        if let failure = journal.state.settings.failRestore { throw failure.storeError() }
        let account = configuration.account.id
        let now = configuration.clock.now
        let (restored, _) = try transactOrThrow { state throws(LocalAppStoreError) in
            // Every purchase of a restorable product, and every renewal of a subscription;
            // a non-consumable bought again (delivered free) only through its first purchase.
            let originals = state.orderedEntries.filter { entry in
                let transaction = entry.transaction
                return entry.accountID == account && transaction.state == .purchased
                    && transaction.productType.isRestorable && transaction.revocationDate == nil
                    && (transaction.productType != .nonConsumable || transaction.originalTransactionID == entry.id)
                    && (applicationUsername == nil || transaction.payment.applicationUsername == applicationUsername)
            }
            var records: [JournalRecord] = []
            var restored: [StoreCore.Transaction] = []
            for original in originals {
                let old = original.transaction
                let transaction = StoreCore.Transaction(
                    transactionID: state.allocateTransactionID(), originalTransactionID: old.originalTransactionID,
                    productID: old.productID, productType: old.productType, payment: old.payment, state: .restored,
                    purchaseDate: now, originalPurchaseDate: old.originalPurchaseDate, expiresDate: old.expiresDate,
                    webOrderLineItemID: old.webOrderLineItemID, price: old.price, currencyCode: old.currencyCode,
                    storefront: old.storefront, subscriptionGroupID: old.subscriptionGroupID,
                    isUpgraded: old.isUpgraded, offerType: old.offerType, offerID: old.offerID)
                records.append(JournalRecord.make(QueueEntry(
                    transaction: transaction, accountID: account, charged: false, finished: false, pending: nil, owner: nil)))
                restored.append(transaction)
            }
            return (records, restored)
        }
        return signed(restored)
    }

    /// Issues a fresh app receipt (PKCS#7, signed by the store's chain), writes it to
    /// `receiptFileURL` and returns it.
    /// - Throws: the simulated refresh error when that setting is on; `.systemError` naming
    ///   the cause when the receipt cannot be issued.
    public func refreshReceipt() async throws(StoreError) -> Data {
        try pullOrThrow()
        await pause()
        if let failure = journal.state.settings.failRefreshReceipt { throw failure.storeError() }
        do {
            return try await writeAppReceipt()
        } catch {
            throw .systemError("cannot issue the app receipt: \(error)")
        }
    }

    /// The app receipt as the account's purchases are now: issued on demand (after every
    /// purchase, restore and refund it reflects them) and written to `receiptFileURL`.
    public func appReceipt() async -> Data? {
        try? await writeAppReceipt()
    }

    /// `transactions` with their StoreKit 2 signed transaction (JWS, ES256, `x5c` chain),
    /// signed now as the App Store signs on each request.
    func signed(_ transactions: [StoreCore.Transaction]) -> [StoreCore.Transaction] {
        guard !transactions.isEmpty else { return transactions }
        guard let signer = try? currentSigner() else { return transactions }
        let now = configuration.clock.now
        return transactions.map { transaction in
            var t = transaction
            t.signedTransaction = nil
            if let cached = signatures[t.transactionID], cached.version == t {
                t.signedTransaction = cached.jws
            } else if let jws = try? signer.signedTransaction(t, now: now) {
                signatures[t.transactionID] = (t, jws)
                t.signedTransaction = jws
            }
            return t
        }
    }

    /// Reads the changes other processes made (an approval, a purchase) and sends them on
    /// the event stream; processes transactions a dead process left `.purchasing`.
    /// Changes whenever the store's journal does, in this process or another; read it after
    /// `synchronize()` to learn whether anything happened since the last look.
    public var revision: Int { journal.revision }

    public func synchronize() async {
        pull()
        adoptAbandoned()
        advanceSubscriptions()
    }

    // MARK: - Transaction manager

    /// Deferred transactions of the account: waiting for approval (Ask to Buy) or to be resolved.
    public func pending() throws(LocalAppStoreError) -> [PendingTransaction] {
        try pullChecked()
        let account = configuration.account.id
        return journal.state.unfinishedEntries.compactMap { entry in
            guard entry.accountID == account, entry.transaction.state == .deferred, let reason = entry.pending else {
                return nil
            }
            return PendingTransaction(transaction: signed([entry.transaction])[0], reason: reason)
        }
    }

    /// Every transaction of the account, finished or not, oldest first.
    public func history() throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        try pullChecked()
        return signed(accountEntries().map(\.transaction))
    }

    /// The transactions the account was charged for, oldest first: its purchase ledger.
    public func charges() throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        try pullChecked()
        return signed(accountEntries().filter(\.charged).map(\.transaction))
    }

    /// Approves an Ask to Buy purchase: the account is charged and it becomes `.purchased`.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for approval.
    @discardableResult
    public func approve(transactionID: String) throws(LocalAppStoreError) -> StoreCore.Transaction {
        try complete(transactionID, waitingFor: .askToBuy)
    }

    /// Declines an Ask to Buy purchase: it fails with `.paymentCancelled`, nothing is charged.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for approval.
    @discardableResult
    public func decline(transactionID: String) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = configuration.account.id
        let (transaction, changed) = try journal.transact { state throws(LocalAppStoreError) in
            var entry = try Self.waiting(state, transactionID, account: account, for: .askToBuy)
            entry.transaction.state = .failed
            entry.transaction.error = .paymentCancelled
            entry.pending = nil
            return ([JournalRecord.make(entry)], entry.transaction)
        }
        announce(changed)
        return signed([transaction])[0]
    }

    /// Resolves an interrupted purchase: the account is charged and it becomes `.purchased`.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it was not interrupted.
    @discardableResult
    public func resolve(transactionID: String) throws(LocalAppStoreError) -> StoreCore.Transaction {
        try complete(transactionID, waitingFor: .interrupted)
    }

    // MARK: - Settings, storefront, promoted purchases

    /// Every setting with its value and description, in display order.
    public func settings() throws(LocalAppStoreError) -> [StoreSetting] {
        try pullChecked()
        return journal.state.settings.entries
    }

    /// The settings as values.
    public func currentSettings() throws(LocalAppStoreError) -> LocalStoreSettings {
        try pullChecked()
        return journal.state.settings
    }

    /// Changes one setting (persisted; other processes see it on their next operation).
    /// - Parameters:
    ///   - name: one of `LocalStoreSettings.names`, e.g. `ask-to-buy`.
    ///   - value: e.g. `on`, `off`, `250`, `network`.
    /// - Throws: `.unknownSetting` or `.invalidSettingValue`, naming what is accepted.
    public func set(name: String, value: String) throws(LocalAppStoreError) {
        let now = configuration.clock.now
        let (rateChanged, changed) = try journal.transact { state throws(LocalAppStoreError) in
            var settings = state.settings
            try settings.set(name: name, value: value)
            guard settings != state.settings else { return ([], false) }
            guard settings.storeTimeRate != state.settings.storeTimeRate else { return ([JournalRecord.make(settings)], false) }
            return (timeRateChange(to: settings, state: &state, now: now), true)
        }
        announce(changed)
        if rateChanged { subscriptionsChanged() }
    }

    /// The current storefront.
    public var storefront: Storefront { localizer.storefront }

    /// The current display locale.
    public var locale: String { localizer.locale }

    /// Moves the account to another storefront (and locale); products are localized anew.
    /// - Parameters:
    ///   - code: an ISO 3166 alpha-3 storefront code, e.g. `JPN`.
    ///   - locale: the display locale; `nil` for the storefront's own.
    /// - Throws: `.unknownStorefront` when the code is not in the storefront table.
    public func setStorefront(_ code: String, locale: String? = nil) throws(LocalAppStoreError) {
        guard let storefront = Storefront.named(code) else { throw .unknownStorefront(code) }
        localizer = ProductLocalizer(
            catalog: configuration.catalog, storefront: storefront, locale: locale ?? storefront.locale)
    }

    /// Simulates a purchase started from the App Store (a promoted product): sends
    /// `.storePaymentRequested` on the event stream, for the app to add or not.
    /// - Throws: `.unknownProduct` when the catalog has no such product.
    public func requestStorePayment(productID: String) throws(LocalAppStoreError) {
        guard let product = configuration.catalog.product(id: productID) else { throw .unknownProduct(productID) }
        let event = BackendEvent.storePaymentRequested(Payment(productID: productID), localizer.localize(product))
        for continuation in listeners.values { continuation.yield(event) }
    }

    // MARK: - Processing

    /// Decides a `.purchasing` transaction as the settings say: failed, deferred, or charged.
    private func settle(_ id: String) {
        configuration.faultHook(.beforeCharge)
        let account = configuration.account.id
        let now = configuration.clock.now
        let catalog = configuration.catalog
        let desk = { (state: JournalState) in self.desk(state, now: now) }
        let result = try? journal.transact { state throws(LocalAppStoreError) in
            guard var entry = state.entries[id], entry.accountID == account, !entry.finished,
                entry.transaction.state == .purchasing else { return ([], false) }
            let settings = state.settings
            var extra: [JournalRecord] = []
            entry.owner = nil
            if let failure = settings.failPurchases {
                entry.transaction.state = .failed
                entry.transaction.error = failure.storeError(productID: entry.transaction.productID)
            } else if settings.askToBuy {
                entry.transaction.state = .deferred
                entry.pending = .askToBuy
            } else if settings.interruptPurchases {
                entry.transaction.state = .deferred
                entry.transaction.error = .interrupted
                entry.pending = .interrupted
            } else {
                extra = Self.charge(&entry, state: state, catalog: catalog, now: now, desk: desk(state))
            }
            return ([JournalRecord.make(entry)] + extra, entry.charged)
        }
        // A failed write leaves the transaction `.purchasing` and unscheduled: the next
        // `synchronize()` or `events()` settles it again.
        scheduled.remove(id)
        guard let result else { return }
        if result.result { configuration.faultHook(.afterCharge) }
        announce(result.changed)
        if !subscriptionEntries(result.changed).isEmpty { subscriptionsChanged() }
    }

    /// The auto-renewable entries among `changed`.
    private func subscriptionEntries(_ changed: [QueueEntry]) -> [QueueEntry] {
        changed.filter { $0.transaction.productType == .autoRenewable }
    }

    /// Charges a deferred purchase that waits for `reason`, and marks it purchased.
    private func complete(_ id: String, waitingFor reason: PendingReason) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = configuration.account.id
        let now = configuration.clock.now
        let catalog = configuration.catalog
        let desk = { (state: JournalState) in self.desk(state, now: now) }
        let (entry, changed) = try journal.transact { state throws(LocalAppStoreError) in
            var entry = try Self.waiting(state, id, account: account, for: reason)
            entry.pending = nil
            entry.transaction.error = nil
            let extra = Self.charge(&entry, state: state, catalog: catalog, now: now, desk: desk(state))
            return ([JournalRecord.make(entry)] + extra, entry)
        }
        if entry.charged { configuration.faultHook(.afterCharge) }
        announce(changed)
        if !subscriptionEntries(changed).isEmpty { subscriptionsChanged() }
        return signed([entry.transaction])[0]
    }

    /// Marks a transaction purchased and charges the account, unless the account already
    /// owns the non-consumable (then it is delivered again without a charge, as the App Store does).
    private static func charge(
        _ entry: inout QueueEntry, state: JournalState, catalog: StoreKitConfiguration, now: Date, desk: SubscriptionDesk
    ) -> [JournalRecord] {
        entry.transaction.state = .purchased
        entry.transaction.error = nil
        entry.transaction.purchaseDate = now
        entry.transaction.originalPurchaseDate = now
        let transaction = entry.transaction
        if transaction.productType == .nonConsumable,
            let owned = state.ownedPurchase(accountID: entry.accountID, productID: transaction.productID),
            owned.id != entry.id {
            entry.transaction = StoreCore.Transaction(
                transactionID: transaction.transactionID, originalTransactionID: owned.id,
                productID: transaction.productID, productType: transaction.productType, payment: transaction.payment,
                state: .purchased, purchaseDate: now, originalPurchaseDate: owned.transaction.purchaseDate,
                price: transaction.price, currencyCode: transaction.currencyCode, storefront: transaction.storefront)
            entry.charged = false
            return []
        }
        if transaction.productType == .autoRenewable {
            let (charged, records) = desk.purchase(&entry, state: state)
            entry.charged = charged && entry.transaction.state == .purchased
            return records
        }
        entry.charged = true
        return []
    }

    /// The subscription rules for a change made now under `state`'s settings.
    func desk(_ state: JournalState, now: Date) -> SubscriptionDesk {
        let localizer = self.localizer
        let catalog = configuration.catalog
        return SubscriptionDesk(catalog: catalog, settings: state.settings, now: now) { product, code in
            code.flatMap(Storefront.named).map { catalog.price(for: product, in: $0) } ?? localizer.price(of: product)
        }
    }

    private static func waiting(
        _ state: JournalState, _ id: String, account: String, for reason: PendingReason
    ) throws(LocalAppStoreError) -> QueueEntry {
        guard let entry = state.entries[id], entry.accountID == account else { throw .unknownTransaction(id) }
        guard !entry.finished, entry.transaction.state == .deferred, entry.pending == reason else {
            let now = entry.finished ? "finished" : entry.pending.map { "waiting for \($0)" } ?? entry.transaction.state.rawValue
            throw .notPending(transactionID: id, state: now, expected: "waiting for \(reason)")
        }
        return entry
    }

    /// Settles `.purchasing` transactions whose owner (a process or instance) is gone, and
    /// this instance's own whose settling failed.
    private func adoptAbandoned() {
        let account = configuration.account.id
        let directory = configuration.stateDirectory.path
        let mine = lease.token
        let orphans = journal.state.unfinishedEntries.filter { entry in
            guard entry.accountID == account, entry.transaction.state == .purchasing else { return false }
            guard let owner = entry.owner else { return true }
            if owner == mine { return !scheduled.contains(entry.id) }
            return OwnerLease.isAbandoned(token: owner, directory: directory)
        }
        for orphan in orphans { settle(orphan.id) }
    }

    // MARK: - Events and state

    /// How many of this instance's purchases wait for their latency before being settled.
    var scheduledSettleCount: Int { scheduled.count }

    private var latency: Duration { .milliseconds(journal.state.settings.latencyMilliseconds) }

    /// Waits one step of latency on the store's clock.
    private func pause() async {
        let delay = latency
        guard delay > .zero else { return }
        try? await configuration.clock.sleep(for: delay)
    }

    private func accountEntries() -> [QueueEntry] {
        let account = configuration.account.id
        return journal.state.orderedEntries.filter { $0.accountID == account }
    }

    private func unfinished() -> [StoreCore.Transaction] {
        let account = configuration.account.id
        return journal.state.unfinishedEntries.filter { $0.accountID == account }.map(\.transaction)
    }

    private func removeListener(_ id: UUID) {
        listeners[id] = nil
    }

    /// Reads other processes' changes and announces them; a read failure leaves the state as it was.
    private func pull() {
        if let changed = try? journal.refresh() { announce(changed) }
    }

    func pullChecked() throws(LocalAppStoreError) {
        announce(try journal.refresh())
    }

    private func pullOrThrow() throws(StoreError) {
        do { try pullChecked() } catch { throw error.storeError }
    }

    func transactOrThrow<T>(
        sync: Bool = true,
        _ body: (inout JournalState) throws(LocalAppStoreError) -> (records: [JournalRecord], result: T)
    ) throws(StoreError) -> (T, [QueueEntry]) {
        do {
            let (result, changed) = try journal.transact(sync: sync, body)
            announce(changed)
            return (result, changed)
        } catch {
            throw error.storeError
        }
    }

    /// Sends changed entries of the account on every stream: finished ones as removed,
    /// others (except `.purchasing`) as updated.
    func announce(_ changed: [QueueEntry]) {
        guard !changed.isEmpty, !listeners.isEmpty else { return }
        let account = configuration.account.id
        var updated: [StoreCore.Transaction] = []
        var removed: [String] = []
        for entry in changed where entry.accountID == account {
            if entry.finished {
                removed.append(entry.id)
            } else if entry.transaction.state != .purchasing {
                updated.append(entry.transaction)
            }
        }
        updated = signed(updated)
        for continuation in listeners.values {
            if !updated.isEmpty { continuation.yield(.transactionsUpdated(updated)) }
            if !removed.isEmpty { continuation.yield(.transactionsRemoved(removed)) }
        }
    }
}
