import Crypto
import Foundation
import Receipts
import StoreCore

/// Issues what the App Store issues, for the local App Store: the app receipt (PKCS#7
/// SignedData, SHA-256, every documented attribute, bound to the device), a JWS signed
/// transaction for each transaction, and signed renewal info for subscriptions, all under the
/// store's own certificate chain (root → intermediate → signing certificate).
///
/// It is a pure function of its inputs plus the chain: the store decides which transactions
/// exist and which are finished; this builds and signs. Building a receipt is linear in the
/// number of transactions.
public struct LocalReceiptIssuer: Sendable {
    /// What every receipt and signed transaction says about the app and the device.
    public struct Configuration: Sendable, Hashable {
        /// The app's bundle identifier.
        public var bundleID: String
        /// The app's version (`CFBundleVersion`).
        public var appVersion: String
        /// The version originally bought.
        public var originalAppVersion: String
        /// This device's identifier bytes (16 bytes of `identifierForVendor`).
        public var deviceIdentifier: [UInt8]
        /// The receipt type written in attribute 0.
        public var receiptType: ReceiptType
        /// The environment written in signed transactions and renewal info.
        public var environment: AppStoreEnvironment

        /// Creates a configuration.
        public init(
            bundleID: String, appVersion: String, originalAppVersion: String = "1.0", deviceIdentifier: [UInt8],
            receiptType: ReceiptType = .xcode, environment: AppStoreEnvironment = .localTesting
        ) {
            self.bundleID = bundleID
            self.appVersion = appVersion
            self.originalAppVersion = originalAppVersion
            self.deviceIdentifier = deviceIdentifier
            self.receiptType = receiptType
            self.environment = environment
        }
    }

    /// The directory, under the store's state directory, that keeps the chain.
    public static let certificatesDirectoryName = "Certificates"

    /// The chain everything is signed with.
    public let authority: CertificateAuthority
    /// The app and device.
    public let configuration: Configuration

    /// Creates an issuer over an existing chain.
    public init(authority: CertificateAuthority, configuration: Configuration) {
        self.authority = authority
        self.configuration = configuration
    }

    /// Loads the chain kept in `stateDirectory/Certificates`, making it on first use.
    /// - Throws: `CryptoError` naming the file when the chain is damaged, or the file system's error.
    public static func loadOrCreate(
        stateDirectory: URL, configuration: Configuration, now: Date, fileManager: FileManager = .default
    ) throws -> LocalReceiptIssuer {
        let directory = stateDirectory.appendingPathComponent(certificatesDirectoryName)
        let authority = try CertificateAuthority.loadOrCreate(in: directory, now: now, fileManager: fileManager)
        return LocalReceiptIssuer(authority: authority, configuration: configuration)
    }

    /// Writes the root certificate as DER, for a server to trust.
    /// - Throws: the file system's error.
    public func exportRoot(to url: URL) throws { try authority.exportRoot(to: url) }

    // MARK: - App receipt

    /// The receipt payload for the account's transactions.
    ///
    /// Purchased and restored transactions are listed, refunded ones with their cancellation
    /// date; finished consumables drop out, as on the App Store; failed, deferred and
    /// purchasing ones never appear.
    /// - Parameters:
    ///   - transactions: the account's transactions, in any order.
    ///   - finishedTransactionIDs: transactions the app has finished.
    ///   - now: the receipt's creation date.
    ///   - opaqueValue: the opaque value that, with the device identifier, makes the hash.
    /// - Throws: `CryptoError` if OpenSSL cannot hash.
    public func appReceipt(
        transactions: [Transaction], finishedTransactionIDs: Set<String>, now: Date, opaqueValue: [UInt8]
    ) throws -> AppReceipt {
        var listed: [InAppPurchaseReceipt] = []
        listed.reserveCapacity(transactions.count)
        let upgrades = Self.upgradeDates(transactions)
        for transaction in transactions {
            let refunded = transaction.revocationDate != nil
            guard transaction.state.grantsContent || refunded else { continue }
            if transaction.productType == .consumable, finishedTransactionIDs.contains(transaction.transactionID), !refunded {
                continue
            }
            listed.append(Self.inAppPurchase(transaction, upgradedAt: upgrades[transaction.transactionID]))
        }
        var receipt = AppReceipt(
            receiptType: configuration.receiptType, appItemID: 0, bundleID: configuration.bundleID,
            appVersion: configuration.appVersion, opaqueValue: [], sha1Hash: [], creationDate: now,
            originalPurchaseDate: nil, originalAppVersion: configuration.originalAppVersion, inApp: listed)
        try ReceiptSigner.bind(&receipt, deviceIdentifier: configuration.deviceIdentifier, opaqueValue: opaqueValue)
        return receipt
    }

    /// Builds, signs and returns the receipt file (DER).
    /// - Parameter opaqueValue: 16 fresh random bytes by default.
    /// - Throws: `CryptoError` if OpenSSL cannot sign or hash.
    public func issueReceipt(
        transactions: [Transaction], finishedTransactionIDs: Set<String>, now: Date,
        opaqueValue: [UInt8]? = nil
    ) throws -> Data {
        let opaque = try opaqueValue ?? SecureRandom.bytes(count: 16)
        let receipt = try appReceipt(
            transactions: transactions, finishedTransactionIDs: finishedTransactionIDs, now: now, opaqueValue: opaque)
        return Data(try ReceiptSigner(authority: authority).sign(receipt))
    }

    /// Writes a receipt file atomically (a reader never sees half a receipt).
    /// - Throws: the file system's error.
    public static func write(_ receipt: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try receipt.write(to: url, options: .atomic)
    }

    /// When each upgraded subscription transaction was replaced: the purchase date of the next
    /// period of its subscription after the upgraded period began. The receipt gives it as the
    /// cancellation date, as the App Store does for "an auto-renewable subscription plan that
    /// was upgraded"; restored copies of the period get the same date.
    static func upgradeDates(_ transactions: [Transaction]) -> [String: Date] {
        let upgraded = transactions.filter(\.isUpgraded)
        guard !upgraded.isEmpty else { return [:] }
        let originals = Set(upgraded.map(\.originalTransactionID))
        let purchases = Dictionary(
            grouping: transactions.filter { originals.contains($0.originalTransactionID) && $0.state != .restored },
            by: \.originalTransactionID)
        func period(_ t: Transaction) -> String { t.originalTransactionID + "/" + (t.webOrderLineItemID ?? t.transactionID) }
        var byPeriod: [String: Date] = [:]
        for transaction in upgraded where transaction.state != .restored {
            byPeriod[period(transaction)] = purchases[transaction.originalTransactionID]?
                .map(\.purchaseDate).filter { $0 > transaction.purchaseDate }.min()
        }
        var dates: [String: Date] = [:]
        for transaction in upgraded { dates[transaction.transactionID] = byPeriod[period(transaction)] }
        return dates
    }

    /// One transaction as an in-app purchase receipt entry; `upgradedAt` is when an upgrade
    /// replaced it (its cancellation date unless it was refunded).
    public static func inAppPurchase(_ transaction: Transaction, upgradedAt: Date? = nil) -> InAppPurchaseReceipt {
        let isSubscription = transaction.productType == .autoRenewable
        return InAppPurchaseReceipt(
            quantity: Int64(transaction.quantity), productID: transaction.productID,
            transactionID: transaction.transactionID, originalTransactionID: transaction.originalTransactionID,
            purchaseDate: transaction.purchaseDate, originalPurchaseDate: transaction.originalPurchaseDate,
            productType: productType(transaction.productType), expiresDate: transaction.expiresDate,
            webOrderLineItemID: transaction.webOrderLineItemID.flatMap { Int64($0) },
            cancellationDate: transaction.revocationDate ?? upgradedAt,
            isInTrialPeriod: isSubscription ? transaction.offerType == .introductory && transaction.price == 0 : nil,
            isInIntroOfferPeriod: isSubscription ? transaction.offerType == .introductory : nil,
            promotionalOfferIdentifier: transaction.offerType == .promotional ? transaction.offerID : nil)
    }

    static func productType(_ type: ProductType) -> InAppProductType? {
        switch type {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewableSubscription
        case .nonRenewing: .nonRenewingSubscription
        default: nil
        }
    }

    // MARK: - Signed transactions

    /// The `JWSTransactionDecodedPayload` of a transaction, signed at `now`.
    public func transactionPayload(_ transaction: Transaction, now: Date) -> JWSTransactionDecodedPayload {
        var payload = JWSTransactionDecodedPayload()
        payload.transactionId = transaction.transactionID
        payload.originalTransactionId = transaction.originalTransactionID
        payload.webOrderLineItemId = transaction.webOrderLineItemID
        payload.bundleId = configuration.bundleID
        payload.productId = transaction.productID
        payload.subscriptionGroupIdentifier = transaction.subscriptionGroupID
        payload.purchaseDate = transaction.purchaseDate
        payload.originalPurchaseDate = transaction.originalPurchaseDate
        payload.expiresDate = transaction.expiresDate
        payload.quantity = Int32(clamping: transaction.quantity)
        payload.type = Self.storeProductType(transaction.productType)
        payload.appAccountToken = transaction.payment.applicationUsername.flatMap(UUID.init(uuidString:))
        payload.inAppOwnershipType = .purchased
        payload.signedDate = now
        payload.rawRevocationReason = transaction.revocationReason.map { Int32(clamping: $0) }
        payload.revocationDate = transaction.revocationDate
        payload.isUpgraded = transaction.productType == .autoRenewable ? transaction.isUpgraded : nil
        payload.offerType = Self.offerType(transaction.offerType)
        payload.offerIdentifier = transaction.offerID
        payload.environment = configuration.environment
        payload.storefront = transaction.storefront
        payload.transactionReason = transaction.productType == .autoRenewable
            && transaction.transactionID != transaction.originalTransactionID && transaction.state == .purchased
            ? .renewal : .purchase
        payload.price = transaction.price.map(Self.milliunits)
        payload.currency = transaction.currencyCode
        return payload
    }

    /// Signs a transaction as a StoreKit 2 signed transaction (JWS, ES256, chain in `x5c`).
    /// - Throws: `CryptoError` when the chain's key is not EC or OpenSSL cannot sign.
    public func signedTransaction(_ transaction: Transaction, now: Date) throws -> String {
        try JWSSigner(authority: authority).sign(transactionPayload(transaction, now: now))
    }

    /// The `JWSRenewalInfoDecodedPayload` of a subscription's renewal info, signed at `now`.
    public func renewalInfoPayload(_ info: RenewalInfo, price: Decimal? = nil, currency: String? = nil, now: Date)
        -> JWSRenewalInfoDecodedPayload
    {
        var payload = JWSRenewalInfoDecodedPayload()
        payload.originalTransactionId = info.originalTransactionID
        payload.productId = info.currentProductID
        payload.autoRenewProductId = info.autoRenewProductID
        payload.autoRenewStatus = info.willAutoRenew ? .on : .off
        payload.rawExpirationIntent = info.expirationIntent.map { Int32(clamping: $0.rawValue) }
        payload.isInBillingRetryPeriod = info.isInBillingRetry
        payload.gracePeriodExpiresDate = info.gracePeriodExpiresDate
        payload.renewalDate = info.renewalDate
        payload.signedDate = now
        payload.environment = configuration.environment
        payload.renewalPrice = price.map(Self.milliunits)
        payload.currency = currency
        return payload
    }

    /// Signs a subscription's renewal info (JWS, ES256, chain in `x5c`).
    /// - Throws: `CryptoError` when the chain's key is not EC or OpenSSL cannot sign.
    public func signedRenewalInfo(_ info: RenewalInfo, price: Decimal? = nil, currency: String? = nil, now: Date) throws -> String {
        try JWSSigner(authority: authority).sign(renewalInfoPayload(info, price: price, currency: currency, now: now))
    }

    static func storeProductType(_ type: ProductType) -> AppStoreProductType? {
        switch type {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewableSubscription
        case .nonRenewing: .nonRenewingSubscription
        default: nil
        }
    }

    static func offerType(_ kind: SubscriptionOffer.Kind?) -> OfferType? {
        switch kind {
        case .introductory?: .introductoryOffer
        case .promotional?: .promotionalOffer
        case .code?: .subscriptionOfferCode
        default: nil
        }
    }

    /// A price in milliunits (1.99 → 1990), as Apple's `price` field carries it.
    static func milliunits(_ price: Decimal) -> Int64 {
        var scaled = price * 1000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }
}
