import Foundation
internal import Receipts

/// Verifies a purchase against the app receipt, as RMStore's `RMStoreAppReceiptVerifier` does:
/// signature and chain against the trusted root, bundle ID, app version, the device hash, and
/// that the receipt holds *this* transaction's ID. On failure it refreshes the receipt once
/// and checks again.
public struct AppReceiptVerifier: PurchaseVerifier {
    /// What the receipt must match. Immutable.
    public struct Configuration: Sendable, Hashable {
        /// DER or PEM encodings of the trusted roots (Apple's root, or the local App Store's).
        public var trustedRoots: [Data]
        /// The app's bundle identifier.
        public var bundleID: String
        /// The app's version; nil skips the check.
        public var appVersion: String?
        /// This device's identifier bytes; nil skips the device hash check.
        public var deviceIdentifier: [UInt8]?
        /// When to check the certificates; nil checks at each receipt's creation date.
        public var verificationDate: Date?

        /// Creates a configuration.
        /// - Parameters:
        ///   - trustedRoots: DER or PEM encodings of the trusted roots.
        ///   - bundleID: the app's bundle identifier.
        ///   - appVersion: the app's version; nil skips the check.
        ///   - deviceIdentifier: the device identifier's bytes; nil skips the device hash check.
        ///   - verificationDate: when to check the certificates; nil: each receipt's creation date.
        public init(
            trustedRoots: [Data], bundleID: String, appVersion: String? = nil, deviceIdentifier: [UInt8]? = nil,
            verificationDate: Date? = nil
        ) {
            self.trustedRoots = trustedRoots
            self.bundleID = bundleID
            self.appVersion = appVersion
            self.deviceIdentifier = deviceIdentifier
            self.verificationDate = verificationDate
        }

        /// Creates a configuration for a device known by its UUID (`identifierForVendor`): its 16
        /// bytes are what the receipt's hash covers.
        /// - Parameters:
        ///   - trustedRoots: DER or PEM encodings of the trusted roots.
        ///   - bundleID: the app's bundle identifier.
        ///   - appVersion: the app's version; nil skips the check.
        ///   - deviceIdentifier: this device's identifier.
        ///   - verificationDate: when to check the certificates; nil: each receipt's creation date.
        public init(
            trustedRoots: [Data], bundleID: String, appVersion: String? = nil, deviceIdentifier: UUID,
            verificationDate: Date? = nil
        ) {
            self.init(
                trustedRoots: trustedRoots, bundleID: bundleID, appVersion: appVersion,
                deviceIdentifier: withUnsafeBytes(of: deviceIdentifier.uuid) { Array($0) },
                verificationDate: verificationDate)
        }
    }

    /// Why a purchase does not check out against the receipt.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// There is no app receipt.
        case noReceipt
        /// The receipt itself is not acceptable.
        case receipt(ReceiptInvalidReason)
        /// The receipt does not list the transaction.
        case transactionNotInReceipt(transactionID: String)
        /// The receipt lists the transaction for another product.
        case productMismatch(transactionID: String, expected: String, found: String)
        /// The receipt says the purchase was refunded or revoked.
        case cancelled(transactionID: String, on: Date)

        /// What is wrong with the receipt, in a sentence fragment.
        public var description: String {
            switch self {
            case .noReceipt: "there is no app receipt"
            case .receipt(let reason): reason.description
            case .transactionNotInReceipt(let id): "the receipt does not contain transaction \(id)"
            case .productMismatch(let id, let expected, let found):
                "the receipt lists transaction \(id) for product \(found), not \(expected)"
            case .cancelled(let id, let date):
                "the receipt says transaction \(id) was refunded on \(ReceiptDate.format(date))"
            }
        }
    }

    /// The verdict on one receipt for one transaction.
    public enum Verdict: Hashable, Sendable {
        /// The receipt is genuine and lists the transaction (the entry found).
        case valid(AppReceipt, InAppPurchaseReceipt)
        /// Why not.
        case invalid(Failure)
    }

    private let configuration: Configuration
    private let validator: ReceiptValidator
    private let refreshReceipt: (@Sendable () async throws -> Data)?

    /// Creates a verifier.
    /// - Parameters:
    ///   - configuration: roots and expectations.
    ///   - refreshReceipt: asks the store for a fresh receipt (e.g. `backend.refreshReceipt`); nil never refreshes.
    /// - Throws: `ReceiptValidatorError` when no root is given or one cannot be read.
    public init(
        configuration: Configuration, refreshReceipt: (@Sendable () async throws -> Data)? = nil
    ) throws(ReceiptValidatorError) {
        self.configuration = configuration
        self.validator = try ReceiptValidator(trustedRoots: configuration.trustedRoots.map { Array($0) })
        self.refreshReceipt = refreshReceipt
    }

    /// Verifies the receipt itself (signature and chain, bundle ID, app version, device hash)
    /// and returns its payload, to ask RMAppReceipt's questions of it
    /// (`containsInAppPurchase(ofProductID:)`, `containsActiveAutoRenewableSubscription(ofProductID:at:)`).
    /// - Parameter receipt: the receipt's bytes (`Store.appReceipt()`).
    /// - Returns: the verified receipt, or why it is not acceptable.
    public func validate(_ receipt: Data?) -> Result<AppReceipt, Failure> {
        guard let receipt, !receipt.isEmpty else { return .failure(.noReceipt) }
        let expectations = ReceiptValidator.Expectations(
            bundleID: configuration.bundleID, appVersion: configuration.appVersion,
            deviceIdentifier: configuration.deviceIdentifier)
        switch validator.validate(Array(receipt), expecting: expectations, at: configuration.verificationDate) {
        case .invalid(let reason): return .failure(.receipt(reason))
        case .valid(let decoded): return .success(decoded)
        }
    }

    /// Checks `receipt` for the transaction with `transactionID` (or, for a restore, its original).
    /// - Parameters:
    ///   - receipt: the receipt's bytes.
    ///   - transactionID: the transaction the receipt must list.
    ///   - originalTransactionID: for a restore, the original it may be listed under instead.
    ///   - productID: the product the entry must be for; nil skips the check.
    /// - Returns: the receipt and its entry, or why not.
    public func check(
        _ receipt: Data?, transactionID: String, originalTransactionID: String? = nil, productID: String? = nil
    ) -> Verdict {
        switch validate(receipt) {
        case .failure(let failure):
            return .invalid(failure)
        case .success(let decoded):
            let entry =
                decoded.inAppPurchase(transactionID: transactionID)
                ?? originalTransactionID.flatMap { decoded.inAppPurchase(transactionID: $0) }
            guard let entry else { return .invalid(.transactionNotInReceipt(transactionID: transactionID)) }
            if let productID, entry.productID != productID {
                return .invalid(
                    .productMismatch(transactionID: transactionID, expected: productID, found: entry.productID))
            }
            if let cancelled = entry.cancellationDate {
                return .invalid(.cancelled(transactionID: entry.transactionID, on: cancelled))
            }
            return .valid(decoded, entry)
        }
    }

    /// Verifies `transaction` against `receipt`; on failure refreshes the receipt once and checks again.
    /// A refresh that cannot complete leaves the purchase unverified (retry later), never valid.
    public func verify(_ transaction: Transaction, receipt: Data?) async -> VerificationOutcome {
        // A restore may carry a new transaction ID; the receipt then lists the original.
        let original = transaction.state == .restored ? transaction.originalTransactionID : nil
        let first = check(
            receipt, transactionID: transaction.transactionID, originalTransactionID: original,
            productID: transaction.productID)
        guard case .invalid(let failure) = first else { return .valid }
        guard let refreshReceipt else { return .invalid(reason: failure.description) }
        let refreshed: Data
        do {
            refreshed = try await refreshReceipt()
        } catch {
            return .unableToComplete(reason: "\(failure.description); refreshing the receipt failed: \(error)")
        }
        switch check(
            refreshed, transactionID: transaction.transactionID, originalTransactionID: original,
            productID: transaction.productID)
        {
        case .valid: return .valid
        case .invalid(let again): return .invalid(reason: again.description)
        }
    }
}

extension AppReceiptVerifier.Failure: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
