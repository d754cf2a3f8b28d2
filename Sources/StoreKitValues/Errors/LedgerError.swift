import Foundation

/// Why the ledger could not do what was asked.
public enum LedgerError: Error, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Reading or writing the ledger's file failed.
    case io(path: String, reason: String)
    /// The ledger's file is not in a form this version can read.
    case corrupt(path: String, reason: String)
    /// Fewer units are left than asked for.
    case insufficientBalance(productID: String, balance: Int, requested: Int)

    /// What went wrong, naming the ledger's file once (a vault's own message names it already).
    public var description: String {
        switch self {
        case .io(let path, let reason): reason.contains(path) ? reason : "\(path): \(reason)"
        case .corrupt(let path, let reason):
            reason.contains(path)
                ? "The purchase ledger is damaged: \(reason)" : "\(path): the purchase ledger is damaged: \(reason)"
        case .insufficientBalance(let id, let balance, let requested):
            "Cannot consume \(requested) of \(id): the balance is \(balance)."
        }
    }
}

extension LedgerError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
