/// What `Store.auditLedger()` found: the transactions the store says this app finished that
/// the ledger does not hold (its file deleted, truncated, or replaced by an older copy). A
/// non-consumable or subscription counts as held when the ledger has any transaction of its
/// original purchase (a restore brings those back); a consumable only by its own ID.
public struct LedgerAudit: Sendable, Equatable {
    /// The finished transactions the ledger lacks, oldest first.
    public let missing: [Transaction]

    /// Creates an audit of `missing` transactions.
    public init(missing: [Transaction]) {
        self.missing = missing
    }

    /// Whether the ledger holds everything the store says was delivered.
    public var isComplete: Bool { missing.isEmpty }

    /// The missing transactions a restore gives back (`Store.recoverLostPurchases`, a sync):
    /// non-consumables and subscriptions, non-renewing ones too.
    public var restorable: [Transaction] { missing.filter { RestoreScope.sync.includes($0.productType) } }

    /// The missing consumables, which no restore gives back: their transactions, oldest first.
    public var lostConsumables: [Transaction] { missing.filter { $0.productType == .consumable } }

    /// Units of each consumable product lost with them.
    public var lostUnits: [String: Int] {
        lostConsumables.reduce(into: [:]) { $0[$1.productID, default: 0] += $1.quantity }
    }
}
