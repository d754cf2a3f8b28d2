/// What the `crash-check` child found in one crash state after reopening it as the next run
/// of the app would: the store's and the vault's view after recovery, the downloads, the
/// installed content, and whether a second run saw the same. Written by the child as one JSON
/// line per state, read by the power-loss tests, which judge it.
public struct CrashCheckReport: Codable, Sendable {
    /// One transaction as the store or the ledger holds it.
    public struct TransactionFacts: Codable, Sendable, Hashable {
        /// The transaction's ID.
        public var id: String
        /// Its original transaction's ID.
        public var originalID: String
        /// The product.
        public var productID: String
        /// `ProductType`'s raw value.
        public var type: String
        /// `TransactionState`'s raw value.
        public var state: String
        /// Units bought.
        public var quantity: Int
        /// The payment's request ID (one `buy`).
        public var requestID: String
        /// Whether it is refunded.
        public var revoked: Bool
        /// Expiry, seconds since 1970, for subscriptions.
        public var expires: Double?
        /// Whether the account has it through Family Sharing (`FAMILY_SHARED`).
        public var familyShared: Bool
        /// Which payment of its 12-month commitment it is, for a monthly plan.
        public var billingPeriodNumber: Int?

        /// Creates facts.
        public init(
            id: String, originalID: String, productID: String, type: String, state: String, quantity: Int,
            requestID: String, revoked: Bool, expires: Double?, familyShared: Bool = false,
            billingPeriodNumber: Int? = nil
        ) {
            self.familyShared = familyShared
            self.billingPeriodNumber = billingPeriodNumber
            self.id = id
            self.originalID = originalID
            self.productID = productID
            self.type = type
            self.state = state
            self.quantity = quantity
            self.requestID = requestID
            self.revoked = revoked
            self.expires = expires
        }
    }

    /// One download record.
    public struct DownloadFacts: Codable, Sendable, Hashable {
        /// The download's ID.
        public var id: String
        /// The product.
        public var productID: String
        /// `DownloadState`'s raw value.
        public var state: String
        /// Its error, if any.
        public var error: String?

        /// Creates facts.
        public init(id: String, productID: String, state: String, error: String?) {
            self.id = id
            self.productID = productID
            self.state = state
            self.error = error
        }
    }

    /// One directory under `Content/PRODUCT_ID/VERSION`, checked file by file.
    public struct InstalledFacts: Codable, Sendable, Hashable {
        /// The product.
        public var productID: String
        /// The content version.
        public var version: String
        /// What is wrong with it (a missing, extra, short or altered file); `nil` when whole.
        public var problem: String?

        /// Creates facts.
        public init(productID: String, version: String, problem: String?) {
            self.productID = productID
            self.version = version
            self.problem = problem
        }
    }

    /// One App Store Server Notification in the store's outbox.
    public struct NotificationFacts: Codable, Sendable, Hashable {
        /// Its `notificationUUID`.
        public var uuid: String
        /// `TYPE` or `TYPE/SUBTYPE`.
        public var kind: String
        /// The transaction it is about, if any.
        public var transactionID: String?
        /// Each attempt's `sendAttemptResult`, oldest first.
        public var attempts: [String]
        /// Whether an attempt is due (it will be sent, or sent again).
        public var due: Bool
        /// Whether an attempt succeeded.
        public var delivered: Bool

        /// Creates facts.
        public init(uuid: String, kind: String, transactionID: String?, attempts: [String], due: Bool, delivered: Bool)
        {
            self.uuid = uuid
            self.kind = kind
            self.transactionID = transactionID
            self.attempts = attempts
            self.due = due
            self.delivered = delivered
        }
    }

    /// What a family member's app saw after recovering: its account's transactions in the
    /// store and its own vault.
    public struct MemberFacts: Codable, Sendable, Hashable {
        /// The member's transactions in the store (its history), oldest first.
        public var store: [TransactionFacts]
        /// The member's ledger (its vault), oldest first.
        public var ledger: [TransactionFacts]
        /// Whether everything owed to it was delivered within the bound.
        public var settled: Bool

        /// Creates facts.
        public init(store: [TransactionFacts], ledger: [TransactionFacts], settled: Bool) {
            self.store = store
            self.ledger = ledger
            self.settled = settled
        }
    }

    /// What one run saw after recovering.
    public struct RunFacts: Codable, Sendable, Hashable {
        /// The account's transactions in the store (its history), oldest first.
        public var store: [TransactionFacts] = []
        /// IDs of the transactions the store charged for.
        public var charged: [String] = []
        /// IDs still unfinished after recovery.
        public var unfinished: [String] = []
        /// The engine's ledger (the vault), oldest first.
        public var ledger: [TransactionFacts] = []
        /// Consumable balances.
        public var balances: [String: Int] = [:]
        /// Download records.
        public var downloads: [DownloadFacts] = []
        /// Installed content.
        public var installed: [InstalledFacts] = []
        /// The store's notification outbox, oldest first.
        public var notifications: [NotificationFacts] = []
        /// Whether every purchase was delivered and every download settled within the bound.
        public var settled = true
        /// Each other account's app (a family member's, or one removed from it), run after this
        /// one's, by account ID.
        public var members: [String: MemberFacts] = [:]
        /// What went wrong in the checker itself (its own store never released), if anything.
        public var warnings: [String] = []

        /// Empty facts.
        public init() {}
    }

    /// The state directory.
    public var state: String
    /// Why the store could not be opened, if it could not.
    public var storeError: String?
    /// Why the vault could not be opened, if it could not.
    public var vaultError: String?
    /// Whether the error is a clear integrity error (damage detected and named), not a crash,
    /// a missing key or wrong data.
    public var integrityError = false
    /// The first run's facts.
    public var first: RunFacts?
    /// What differs in a second run over the same directory (it must see the same), if anything.
    public var secondRunDifference: String?
    /// Lease files in `store/owners` as the crash left them.
    public var leasesBefore: [String] = []
    /// Lease files left in `store/owners` after both runs closed.
    public var leftoverLeases: [String] = []

    /// A report for `state`.
    public init(state: String) {
        self.state = state
    }
}
