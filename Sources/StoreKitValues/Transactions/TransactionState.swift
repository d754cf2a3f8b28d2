/// Where a transaction is in its life, as SKPaymentTransactionState names it; stored raw.
public struct TransactionState: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// In the queue, not yet charged.
    public static let purchasing = TransactionState(rawValue: "purchasing")
    /// Charged; the app must deliver and then finish it.
    public static let purchased = TransactionState(rawValue: "purchased")
    /// Did not go through; `Transaction.error` says why.
    public static let failed = TransactionState(rawValue: "failed")
    /// Brought back by a restore.
    public static let restored = TransactionState(rawValue: "restored")
    /// Waiting for someone else (Ask to Buy) or for the purchase to be resolved.
    public static let deferred = TransactionState(rawValue: "deferred")

    public var description: String { rawValue }

    /// Whether the app should deliver the product (purchased or restored).
    public var grantsContent: Bool { self == .purchased || self == .restored }
}
