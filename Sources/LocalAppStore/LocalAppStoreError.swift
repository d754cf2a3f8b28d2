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
    /// A subscription key cannot sign (its file holds no EC P-256 key).
    case invalidSubscriptionKey(keyID: String, reason: String)
    /// No offer code is this one.
    case unknownOfferCode(String)
    /// No refund request has this identifier, or it was decided already.
    case unknownRefundRequest(String)
    /// The product has no offer of this kind with this identifier.
    case unknownOffer(productID: String, offerID: String, kind: String)
    /// The App Store refused the payment with this error (a promotional offer's signature,
    /// an offer code): passed to the engine as it is.
    case refused(StoreError)
    /// A refund of this transaction was requested already (pending or approved).
    case duplicateRefundRequest(String)
    /// A price the store cannot charge for `productID`, and why.
    case invalidPrice(productID: String, price: String, reason: String)
    /// Family Sharing refused a change of the family or of an account.
    case family(FamilyError)

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
        case .invalidSubscriptionKey(let keyID, let reason):
            "The subscription key \(keyID) cannot sign: \(reason)."
        case .unknownOfferCode(let code):
            "No offer code \(code). `storefront store codes` lists the codes the store issued."
        case .unknownRefundRequest(let id):
            "No pending refund request \(id). `storefront store refund-requests` lists them."
        case .unknownOffer(let productID, let offerID, let kind):
            "\(productID) has no \(kind) offer \(offerID)."
        case .refused(let error):
            error.description
        case .duplicateRefundRequest(let id):
            "A refund of transaction \(id) was requested already. `storefront store refund-requests` lists the requests."
        case .invalidPrice(let productID, let price, let reason):
            "Invalid price \(price) for \(productID): \(reason)."
        case .family(let error):
            error.description
        }
    }

    /// The same failure as the engine's error, for the `StoreBackend` boundary.
    public var storeError: StoreError {
        switch self {
        case .unknownTransaction(let id): .unknownTransaction(id)
        case .unknownProduct(let id): .productNotAvailable(productID: id)
        case .notPending: .paymentInvalid(description)
        case .refused(let error): error
        default: .systemError(description)
        }
    }

    /// Runs `body`, translating the store's error into the engine's (`storeError`) at the
    /// `StoreBackend` boundary.
    static func translating<T>(_ body: () throws(LocalAppStoreError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw error.storeError
        }
    }
}

extension LocalAppStoreError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
