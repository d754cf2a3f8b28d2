import Foundation
import StoreCore
import StorefrontEffects
import StorefrontUI
import Synchronization

/// A store the effects' tests script, as swift-composable-architecture's tests override a
/// dependency: each answer is set beforehand, each call is recorded in order (`calls`), and a
/// failure can be set for any call by its name (`failing`).
final class FakeStore: StorefrontStore {
    /// What the store answers, and what it was asked.
    struct Script: Sendable {
        var context = StoreContext(storefront: "USA", locale: "en_US", account: "Local Tester")
        var products: [Product] = []
        var events: [StoreEvent] = []
        /// The revision each look reads, in turn (the last one repeats).
        var revisions: [Int] = [1]
        /// How many changes `changes()` reports before it ends.
        var changes = 0
        var purchases: [String: PurchaseResult] = [:]
        var offerCodes: [String: String] = [:]
        var history: [Transaction] = []
        var balances: [String: Int] = [:]
        var entitlements: [Entitlement] = []
        var pending: [Transaction] = []
        var subscriptions: [ManagedSubscription] = []
        /// The accounts listed.
        var accounts: [AccountRow] = []
        /// Who shares each family-shared transaction, by transaction ID.
        var sharers: [String: String] = [:]
        /// What a subscription command answers with (the subscription's latest transaction).
        var latestAfterCommand: Transaction?
        var settings: [SettingRow] = []
        var notifications = NotificationPage(rows: [], older: nil)
        var document = TextDocument(title: "App Receipt", lines: [])
        var prices: [StorefrontPrice] = []
        var serverURL: String?
        var consumedBalance = 0
        /// What beginning to cancel shows, and the transaction a retention choice makes.
        var retentionSheet: RetentionSheet?
        var retentionChoiceTransaction: String?
        /// Calls that fail, by the name `calls` records them under, with the error they throw.
        var failing: [String: StoreError] = [:]
        /// Every call, in order: its name and, after a space, its arguments.
        var calls: [String] = []
        var remembered: [String] = []
    }

    let script: Mutex<Script>
    let downloads: (any StorefrontDownloads)?
    /// What `changes()` returns instead of the scripted changes (a real watch).
    private let watch: (@Sendable () -> AsyncStream<Void>)?

    init(
        _ script: Script = Script(), downloads: FakeDownloads? = nil, watch: (@Sendable () -> AsyncStream<Void>)? = nil
    ) {
        self.script = Mutex(script)
        self.downloads = downloads
        self.watch = watch
    }

    /// Every call so far.
    var calls: [String] { script.withLock { $0.calls } }

    /// Records a call and throws its scripted failure, if any.
    private func record(_ name: String, _ arguments: String = "") throws(StoreError) {
        let failure = script.withLock { script in
            script.calls.append(arguments.isEmpty ? name : "\(name) \(arguments)")
            return script.failing[name]
        }
        if let failure { throw failure }
    }

    private func answer<T>(_ name: String, _ arguments: String = "", _ value: (Script) -> T) throws(StoreError) -> T {
        try record(name, arguments)
        return script.withLock { value($0) }
    }

    func events() -> AsyncStream<StoreEvent> {
        let events = script.withLock { $0.events }
        return AsyncStream { continuation in
            for event in events { continuation.yield(event) }
            continuation.finish()
        }
    }

    func synchronize() async { try? record("synchronize") }

    func changes() -> AsyncStream<Void> {
        if let watch { return watch() }
        let count = script.withLock { $0.changes }
        return AsyncStream { continuation in
            for _ in 0..<count { continuation.yield() }
            continuation.finish()
        }
    }

    func revision() async -> Int {
        script.withLock { script in
            script.calls.append("revision")
            return script.revisions.count > 1 ? script.revisions.removeFirst() : script.revisions[0]
        }
    }

    func context() async -> StoreContext { (try? answer("context") { $0.context }) ?? Script().context }

    func products() async throws(StoreError) -> [Product] { try answer("products") { $0.products } }

    func requestProduct(_ productID: String) async throws(StoreError) { try record("requestProduct", productID) }

    func setStorefront(_ code: String, locale: String) async throws(StoreError) {
        try record("setStorefront", "\(code) \(locale)")
        script.withLock {
            $0.context.storefront = code
            $0.context.locale = locale
        }
    }

    func rememberStorefront(_ code: String, locale: String) {
        script.withLock { $0.remembered.append("\(code) \(locale)") }
    }

    func priceComparison(productID: String) async -> [StorefrontPrice] {
        (try? answer("priceComparison", productID) { $0.prices }) ?? []
    }

    func serverURL() async -> String? { (try? answer("serverURL") { $0.serverURL }) ?? nil }

    func signPromotionalOffer(productID: String, offerID: String) throws(StoreError) -> PromotionalOffer {
        try record("signPromotionalOffer", "\(productID) \(offerID)")
        return PromotionalOffer(
            offerID: offerID, keyID: "KEY", nonce: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
            signature: Data([1]), timestamp: 0)
    }

    func purchase(
        _ productID: String, quantity: Int, promotionalOffer: PromotionalOffer?, billingPlan: BillingPlanType?
    ) async -> PurchaseResult {
        let offer = promotionalOffer.map { " offer \($0.offerID)" } ?? ""
        let plan = billingPlan.map { " plan \($0.rawValue)" } ?? ""
        do throws(StoreError) {
            return try answer("purchase", "\(productID) ×\(quantity)\(offer)\(plan)") {
                $0.purchases[productID] ?? .failed(.productNotAvailable(productID: productID), nil)
            }
        } catch {
            return .failed(error, nil)
        }
    }

    func offerCode(for productID: String) async throws(StoreError) -> String? {
        try answer("offerCode", productID) { $0.offerCodes[productID] }
    }

    func redeem(offerCode: String) async -> PurchaseResult {
        script.withLock { script in
            script.calls.append("redeem \(offerCode)")
            let productID = script.offerCodes.first { $0.value == offerCode }?.key ?? ""
            return script.purchases[productID] ?? .failed(.productNotAvailable(productID: productID), nil)
        }
    }

    func restore() async throws(StoreError) -> [Transaction] {
        try answer("restore") { $0.history.filter { $0.productType != .consumable } }
    }

    func refreshReceipt() async throws(StoreError) -> Int { try answer("refreshReceipt") { _ in 4096 } }

    func appTransaction() async throws(StoreError) -> VerificationResult<AppTransaction> {
        try record("appTransaction")
        throw .systemError("no app transaction in the fake")
    }

    func history() async throws(StoreError) -> [Transaction] { try answer("history") { $0.history } }

    func balances() async throws(StoreError) -> [String: Int] { try answer("balances") { $0.balances } }

    func entitlements() async throws(StoreError) -> [Entitlement] { try answer("entitlements") { $0.entitlements } }

    func pending() async throws(StoreError) -> [Transaction] { try answer("pending") { $0.pending } }

    func orderID(forTransactionID transactionID: String) -> String? { "ORDER-\(transactionID)" }

    func accounts() async throws(StoreError) -> [AccountRow] { try answer("accounts") { $0.accounts } }

    func signIn(_ accountID: String) async throws(StoreError) { try record("signIn", accountID) }

    func removeFromFamily(_ accountID: String) async throws(StoreError) { try record("removeFromFamily", accountID) }

    func sharers(of transactions: [Transaction]) async throws(StoreError) -> [String: String] {
        try answer("sharers", transactions.map(\.transactionID).joined(separator: ",")) { $0.sharers }
    }

    func subscriptions(history: [Transaction]) async throws(StoreError) -> [ManagedSubscription] {
        try answer("subscriptions", history.map(\.transactionID).joined(separator: ",")) { $0.subscriptions }
    }

    func consume(_ productID: String, quantity: Int) async throws(StoreError) -> Int {
        try answer("consume", "\(productID) ×\(quantity)") { $0.consumedBalance }
    }

    func retentionSheet(productID: String) async throws(StoreError) -> RetentionSheet {
        let sheet = try answer("retentionSheet", productID) { $0.retentionSheet }
        guard let sheet else { throw .unknownTransaction(productID) }
        return sheet
    }

    func choose(_ choice: RetentionChoice, on sheet: RetentionSheet) async throws(StoreError) -> String? {
        try answer("chooseRetention", "\(choice.rawValue) \(sheet.originalTransactionID)") {
            $0.retentionChoiceTransaction
        }
    }

    func run(_ command: TransactionCommand, transactionID: String) async throws(StoreError) {
        try record("transactionCommand", "\(command) \(transactionID)")
    }

    func run(_ command: SubscriptionCommand, transactionID: String) async throws(StoreError) -> Transaction? {
        try answer("subscriptionCommand", "\(command) \(transactionID)") { $0.latestAfterCommand }
    }

    func settings() async throws(StoreError) -> [SettingRow] { try answer("settings") { $0.settings } }

    func setSetting(name: String, value: String) async throws(StoreError) {
        try record("setSetting", "\(name) \(value)")
        script.withLock { script in
            for i in script.settings.indices where script.settings[i].name == name { script.settings[i].value = value }
        }
    }

    func notifications(before: Int?) async throws(StoreError) -> NotificationPage {
        try answer("notifications", before.map(String.init) ?? "newest") { $0.notifications }
    }

    func receiptDocument() async throws(StoreError) -> TextDocument { try answer("receiptDocument") { $0.document } }

    func transactionDocument(_ transactionID: String) async throws(StoreError) -> TextDocument {
        try answer("transactionDocument", transactionID) { $0.document }
    }
}

/// The engine's downloads, scripted: each download settles as `settles` says when waited for.
final class FakeDownloads: StorefrontDownloads {
    struct Script: Sendable {
        var downloads: [Download] = []
        /// How a download is when `waitUntilSettled` returns, by ID.
        var settles: [String: Download] = [:]
        var failing: [String: DownloadError] = [:]
        var calls: [String] = []
    }

    let script: Mutex<Script>

    init(_ script: Script = Script()) {
        self.script = Mutex(script)
    }

    var calls: [String] { script.withLock { $0.calls } }

    private func record(_ call: String, _ id: String) throws(DownloadError) {
        let failure = script.withLock { script in
            script.calls.append("\(call) \(id)")
            return script.failing[call]
        }
        if let failure { throw failure }
    }

    private func update(_ id: String, _ change: (inout Download) -> Void) -> Download? {
        script.withLock { script in
            guard let i = script.downloads.firstIndex(where: { $0.id == id }) else { return nil }
            change(&script.downloads[i])
            return script.downloads[i]
        }
    }

    func downloads() async -> [Download] { script.withLock { $0.downloads } }

    func download(id: String) async -> Download? { script.withLock { $0.downloads.first { $0.id == id } } }

    func resume(_ id: String) async throws(DownloadError) {
        try record("resume", id)
        _ = update(id) { $0.state = .active }
    }

    func pause(_ id: String) async throws(DownloadError) -> Download {
        try record("pause", id)
        guard let paused = update(id, { $0.state = .paused }) else { throw .unknownDownload(id) }
        return paused
    }

    func cancel(_ id: String) async throws(DownloadError) -> Download {
        try record("cancel", id)
        guard let cancelled = update(id, { $0.state = .cancelled }) else { throw .unknownDownload(id) }
        return cancelled
    }

    func waitUntilSettled(_ id: String) async throws(DownloadError) -> Download {
        try record("waitUntilSettled", id)
        guard let settled = script.withLock({ $0.settles[id] }) else { throw .unknownDownload(id) }
        return settled
    }
}
