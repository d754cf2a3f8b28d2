package import Crypto
import Foundation
package import Receipts
import StoreCore
package import SystemIO

/// Issues what the App Store issues, for the local App Store: the app receipt (PKCS#7
/// SignedData, SHA-256, RSA, every documented attribute, bound to the device), a JWS signed
/// transaction for each transaction, signed renewal info for subscriptions and the signed app
/// transaction, all under the store's own certificate chain (root → intermediate → signers),
/// saying what Apple's would in the configured environment.
///
/// It is a pure function of its inputs plus the chain: the store decides which transactions
/// exist and which are finished; this builds and signs. Building a receipt is linear in the
/// number of transactions.
public struct LocalReceiptIssuer: Sendable {
    /// What every receipt and signed item says about the app, the device and the environment.
    public struct Configuration: Sendable, Hashable {
        /// The app's bundle identifier.
        public var bundleID: String
        /// The app's version (`CFBundleVersion`).
        public var appVersion: String
        /// The version originally bought.
        public var originalAppVersion: String
        /// This device's identifier bytes (16 bytes of `identifierForVendor`).
        public var deviceIdentifier: [UInt8]
        /// The environment every signed item names; the receipt type follows it.
        public var environment: AppStoreEnvironment
        /// The app's Apple ID; receipts and app transactions carry it in Production only, as
        /// Apple's do (the sandbox's receipts say 0 and its app transactions have none).
        public var appAppleID: Int64?
        /// The OCSP responder the certificates name; nil for none.
        public var ocspURL: String?
        /// The app download's transaction ID, which every signed item carries (`appTransactionId`).
        public var appTransactionID: String?
        /// When the customer first got the app (the receipt's and the app transaction's
        /// original purchase date).
        public var originalPurchaseDate: Date?

        /// Creates a configuration.
        public init(
            bundleID: String, appVersion: String, originalAppVersion: String = "1.0", deviceIdentifier: [UInt8],
            environment: AppStoreEnvironment = .sandbox, appAppleID: Int64? = nil, ocspURL: String? = nil,
            appTransactionID: String? = nil, originalPurchaseDate: Date? = nil
        ) {
            self.bundleID = bundleID
            self.appVersion = appVersion
            self.originalAppVersion = originalAppVersion
            self.deviceIdentifier = deviceIdentifier
            self.environment = environment
            self.appAppleID = appAppleID
            self.ocspURL = ocspURL
            self.appTransactionID = appTransactionID
            self.originalPurchaseDate = originalPurchaseDate
        }

        /// The receipt type of attribute 0 for the environment: `ProductionSandbox` for the
        /// sandbox and `Production` as Apple writes them, `Xcode` for Xcode and local testing
        /// (Apple issues no receipt of its own for LocalTesting).
        public var receiptType: ReceiptType {
            switch environment {
            case .production: .production
            case .sandbox: .productionSandbox
            case .xcode, .localTesting: .xcode
            }
        }

        /// The app's Apple ID where Apple gives it: in Production.
        public var appAppleIDInItems: Int64? { environment == .production ? appAppleID : nil }
    }

    /// The directory, under the store's state directory, that keeps the chain.
    public static let certificatesDirectoryName = "Certificates"

    /// The chain everything is signed with.
    package let authority: CertificateAuthority
    /// The app and device.
    public let configuration: Configuration
    /// The catalog, for the offers signed transactions describe (`offerDiscountType`, `offerPeriod`).
    public let catalog: StoreKitConfiguration?
    /// The JWS signer of `authority`'s chain, kept so that its header is encoded and hashed
    /// once (the signing key not EC: why it cannot sign).
    private let signer: Result<JWSSigner, CryptoError>

    /// Creates an issuer over an existing chain.
    package init(authority: CertificateAuthority, configuration: Configuration, catalog: StoreKitConfiguration? = nil) {
        self.authority = authority
        self.configuration = configuration
        self.catalog = catalog
        signer = Result { () throws(CryptoError) in try JWSSigner(authority: authority) }
    }

    /// The signer of every JWS this issuer hands out (ES256, the chain in `x5c`).
    /// - Throws: `CryptoError` when the chain's key is not EC.
    package func jwsSigner() throws(CryptoError) -> JWSSigner { try signer.get() }

    /// Loads the chain kept in `stateDirectory/Certificates`, making it on first use, with
    /// certificates naming `configuration.ocspURL` (issued for the chain's keys when missing).
    /// - Parameter receiptSigner: make the RSA receipt signer when the chain has none yet; without
    ///   it the issuer signs JWS only until a receipt is needed (RSA keys are slow to make), and
    ///   does not read the receipt signer the chain has (each `buy` signs a JWS, never a receipt).
    /// - Throws: `CryptoError` naming the file when the chain is damaged, or the file system's error.
    package static func loadOrCreate(
        stateDirectory: URL, configuration: Configuration, catalog: StoreKitConfiguration? = nil, now: Date,
        receiptSigner: Bool = true, fileSystem: any FileSystem = POSIXFileSystem()
    ) throws -> LocalReceiptIssuer {
        let directory = stateDirectory.appendingPathComponent(certificatesDirectoryName)
        let authority = try CertificateAuthority.loadOrCreate(
            in: directory,
            configuration: CertificateAuthority.Configuration(
                receiptKeyKind: receiptSigner ? .rsa(bits: 2048) : nil, readsReceiptSigner: receiptSigner,
                ocspURL: configuration.ocspURL),
            now: now, fileSystem: fileSystem)
        return LocalReceiptIssuer(authority: authority, configuration: configuration, catalog: catalog)
    }

    /// Writes the root certificate as DER, for a server to trust.
    /// - Throws: the file system's error.
    package func exportRoot(to url: URL, fileSystem: any FileSystem = POSIXFileSystem()) throws {
        try authority.exportRoot(to: url, fileSystem: fileSystem)
    }

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
            if transaction.productType == .consumable, finishedTransactionIDs.contains(transaction.transactionID),
                !refunded
            {
                continue
            }
            listed.append(
                Self.inAppPurchase(
                    transaction, upgradedAt: upgrades[transaction.transactionID], offer: catalog?.offer(of: transaction)
                ))
        }
        var receipt = AppReceipt(
            receiptType: configuration.receiptType, appItemID: configuration.appAppleIDInItems ?? 0,
            bundleID: configuration.bundleID, appVersion: configuration.appVersion, opaqueValue: [], sha1Hash: [],
            creationDate: now, originalPurchaseDate: configuration.originalPurchaseDate,
            originalAppVersion: configuration.originalAppVersion, inApp: listed)
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

    /// Writes a receipt file atomically and durably (SystemIO's `replaceAtomically`: a reader
    /// never sees half a receipt, and a power loss leaves the old one or the new one).
    /// - Throws: the file system's `SystemCallError`.
    package static func write(_ receipt: Data, to url: URL, fileSystem: any FileSystem = POSIXFileSystem()) throws {
        try fileSystem.createDirectories(url.deletingLastPathComponent().path, mode: 0o700)
        try fileSystem.replaceAtomically(
            url.path, with: Array(receipt), temporaryPath: url.path + ".tmp-\(UUID().uuidString)", mode: 0o644)
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
        func period(_ t: Transaction) -> String {
            t.originalTransactionID + "/" + (t.webOrderLineItemID ?? t.transactionID)
        }
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
    /// replaced it (its cancellation date unless it was refunded). `offer` is the catalog's
    /// offer it was priced at: its period is a trial when that offer is free (a paid offer whose
    /// price rounds to 0 in the storefront's currency is not one); without it, when it cost 0.
    public static func inAppPurchase(
        _ transaction: Transaction, upgradedAt: Date? = nil, offer: StoreKitConfiguration.SubscriptionOffer? = nil
    ) -> InAppPurchaseReceipt {
        let isSubscription = transaction.productType == .autoRenewable
        return InAppPurchaseReceipt(
            quantity: Int64(transaction.quantity), productID: transaction.productID,
            transactionID: transaction.transactionID, originalTransactionID: transaction.originalTransactionID,
            purchaseDate: transaction.purchaseDate, originalPurchaseDate: transaction.originalPurchaseDate,
            productType: transaction.productType.apple(), expiresDate: transaction.expiresDate,
            webOrderLineItemID: transaction.webOrderLineItemID.flatMap { Int64($0) },
            cancellationDate: transaction.revocationDate ?? upgradedAt,
            isInTrialPeriod: isSubscription
                ? transaction.offerType == .introductory
                    && (offer.map { $0.paymentMode == .free } ?? (transaction.price == 0)) : nil,
            isInIntroOfferPeriod: isSubscription ? transaction.offerType == .introductory : nil,
            promotionalOfferIdentifier: transaction.offerType == .promotional ? transaction.offerID : nil)
    }
}
