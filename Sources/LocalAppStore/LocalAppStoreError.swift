import Foundation
import StoreCore

/// Why the local App Store could not do what was asked, with what to do about it.
public enum LocalAppStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Reading or writing the store's state failed.
    case io(path: String, reason: String)
    /// The store's journal holds something this version cannot read.
    case corrupt(path: String, line: Int, reason: String)
    /// No transaction of this account has this identifier.
    case unknownTransaction(String)
    /// The transaction is not waiting for what was asked (approve a purchase that is not
    /// waiting for approval, resolve one that was not interrupted…).
    case notPending(transactionID: String, state: String, expected: String)
    /// The transaction was refunded already.
    case alreadyRefunded(transactionID: String, on: Date)
    /// The catalog has no product with this identifier.
    case unknownProduct(String)
    /// No setting has this name.
    case unknownSetting(name: String, known: [String])
    /// The value does not suit the setting.
    case invalidSettingValue(name: String, value: String, accepted: String)
    /// The storefront code is not in the storefront table.
    case unknownStorefront(String)
    /// No notification has this UUID.
    case unknownNotification(String)

    public var description: String {
        switch self {
        case .io(let path, let reason):
            "\(path): \(reason)"
        case .corrupt(let path, let line, let reason):
            "\(path):\(line): the local store's journal is damaged: \(reason). Move the file aside to start with an empty store."
        case .unknownTransaction(let id):
            "No transaction \(id) in this account. `storefront history` lists them."
        case .alreadyRefunded(let id, let date):
            "Transaction \(id) was already refunded (\(date.formatted(.iso8601))); `storefront history` shows it."
        case .notPending(let id, let state, let expected):
            "Transaction \(id) is \(state), not \(expected). `storefront store pending` lists the transactions that wait."
        case .unknownProduct(let id):
            "The catalog has no product \(id)."
        case .unknownSetting(let name, let known):
            "Unknown setting \"\(name)\". Settings: \(known.joined(separator: ", "))."
        case .invalidSettingValue(let name, let value, let accepted):
            "Invalid value \"\(value)\" for setting \(name): expected \(accepted)."
        case .unknownStorefront(let code):
            "Unknown storefront \"\(code)\": expected an ISO 3166 alpha-3 code such as USA, JPN or DEU."
        case .unknownNotification(let uuid):
            "No notification \(uuid). `storefront store notifications` lists them."
        }
    }

    /// The same failure as the engine's error, for the `StoreBackend` boundary.
    public var storeError: StoreError {
        switch self {
        case .unknownTransaction(let id): .unknownTransaction(id)
        case .unknownProduct(let id): .productNotAvailable(productID: id)
        case .notPending: .paymentInvalid(description)
        default: .systemError(description)
        }
    }
}
