import Foundation

/// Why a store operation failed, with StoreKit's error codes where StoreKit has one.
public enum StoreError: Error, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Something the store could not explain.
    case unknown(String)
    /// The client is not allowed to make this request.
    case clientInvalid
    /// The user cancelled.
    case paymentCancelled
    /// The payment's parameters were not recognised (bad quantity, unknown offer).
    case paymentInvalid(String)
    /// This device or account may not make payments.
    case paymentNotAllowed
    /// The product is not sold in the current storefront.
    case productNotAvailable(productID: String)
    /// The store could not be reached.
    case networkError(String)
    /// The store failed internally.
    case systemError(String)
    /// The purchase was interrupted and waits to be resolved (for example new terms to accept).
    case interrupted
    /// The purchase could not be verified; the reason says what failed.
    case verificationFailed(String)
    /// Verification could not be completed now; the transaction stays unfinished and is retried.
    case verificationUnavailable(String)
    /// The engine's ledger could not read or record (the cause says which file and why); a
    /// purchase it could not record stays unfinished and is delivered again.
    case persistenceFailed(LedgerError)
    /// No transaction with this identifier is known.
    case unknownTransaction(String)
    /// The subscription offer's identifier is not one the product has (`SKErrorInvalidOfferIdentifier`).
    case invalidOfferIdentifier(String)
    /// The promotional offer's signature is not valid: wrong, by an unknown key, its nonce
    /// used before or its timestamp stale (`SKErrorInvalidSignature`).
    case invalidSignature(String)
    /// A promotional offer came without its signature's parameters (`SKErrorMissingOfferParams`).
    case missingOfferParams(String)
    /// The offer's price is no longer a discount on the subscription's (`SKErrorInvalidOfferPrice`).
    case invalidOfferPrice(String)
    /// The customer may not take this offer (`SKErrorIneligibleForOffer`).
    case ineligibleForOffer(String)

    /// The `SKErrorDomain` code of this error (0 where StoreKit has no closer one).
    public var code: Int {
        switch self {
        case .unknown, .verificationFailed, .verificationUnavailable, .persistenceFailed,
            .unknownTransaction:
            0
        case .clientInvalid: 1
        case .paymentCancelled: 2
        case .paymentInvalid: 3
        case .paymentNotAllowed: 4
        case .productNotAvailable: 5
        case .networkError: 7
        case .systemError: 0
        case .interrupted: 16
        case .invalidOfferIdentifier: 11
        case .invalidSignature: 12
        case .missingOfferParams: 13
        case .invalidOfferPrice: 14
        case .ineligibleForOffer: 18
        }
    }

    public var description: String {
        switch self {
        case .unknown(let why): "Unknown store error: \(why)"
        case .clientInvalid: "This client is not allowed to make the request."
        case .paymentCancelled: "The payment was cancelled."
        case .paymentInvalid(let why): "The payment is invalid: \(why)"
        case .paymentNotAllowed: "Payments are not allowed on this device or account."
        case .productNotAvailable(let id): "The product \(id) is not available in this storefront."
        case .networkError(let why): "The store could not be reached: \(why)"
        case .systemError(let why): "The store failed: \(why)"
        case .interrupted: "The purchase was interrupted; resolve it to complete the purchase."
        case .verificationFailed(let why): "The purchase could not be verified: \(why)"
        case .verificationUnavailable(let why): "Verification is unavailable right now (will retry): \(why)"
        case .persistenceFailed(let cause): "The purchase could not be recorded (will retry): \(cause)"
        case .unknownTransaction(let id): "No transaction \(id) is known."
        case .invalidOfferIdentifier(let why): "The offer identifier is invalid: \(why)"
        case .invalidSignature(let why): "The offer's signature is invalid: \(why)"
        case .missingOfferParams(let why): "The offer's parameters are missing: \(why)"
        case .invalidOfferPrice(let why): "The offer's price is invalid: \(why)"
        case .ineligibleForOffer(let why): "The customer is not eligible for the offer: \(why)"
        }
    }
}

extension StoreError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
