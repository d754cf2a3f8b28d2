import StoreCore

/// Why a deferred transaction waits, stored raw so newer reasons survive a round trip.
public struct PendingReason: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Ask to Buy: waits for `approve` or `decline`.
    public static let askToBuy = PendingReason(rawValue: "ask-to-buy")
    /// An interrupted purchase: waits for `resolve`.
    public static let interrupted = PendingReason(rawValue: "interrupted")

    /// Why `transaction`, a deferred one the store handed out (a purchase's `.pending` result),
    /// waits: the store defers an interrupted purchase with the error `StoreError.interrupted`
    /// and an Ask to Buy purchase without one.
    /// - Parameter transaction: a deferred transaction.
    public init(waitingOf transaction: Transaction) {
        self = transaction.error == .interrupted ? .interrupted : .askToBuy
    }

    public var description: String { rawValue }

    /// A purchase waiting for this reason, in words: "an Ask to Buy purchase waiting for approval".
    public var waitingPurchase: String {
        switch self {
        case .askToBuy: "an Ask to Buy purchase waiting for approval"
        case .interrupted: "an interrupted purchase waiting to be resolved"
        default: "a purchase waiting for \(rawValue)"
        }
    }

    /// The commands that end the wait of transaction `id`, quoted: "'storefront store resolve ID'";
    /// `nil` for a reason this version does not know.
    /// - Parameter id: the waiting transaction's identifier.
    public func commands(transactionID id: String) -> String? {
        switch self {
        case .askToBuy: "'storefront store approve \(id)' or 'storefront store decline \(id)'"
        case .interrupted: "'storefront store resolve \(id)'"
        default: nil
        }
    }
}
