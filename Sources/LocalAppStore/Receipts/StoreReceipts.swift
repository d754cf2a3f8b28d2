import Foundation
internal import Receipts
import StoreCore
internal import SystemIO

/// The store's receipts and the chain that signs them: the chain lives in
/// `STATE/Certificates/`, the device identifier in `STATE/device-id`, each account's app
/// download in `STATE/AppTransactions/`, the receipt in `STATE/receipt`, and the root is
/// exported as `STATE/Certificates/root.cer`. All of them are written through the
/// configuration's `FileSystem` (SystemIO), durably: the recording file layer and the fault
/// injection see them as they see the journal. What the chain signs (transactions, renewal
/// info, the app transaction, OCSP answers) is in `StoreReceipts+Signing.swift`; the engine's
/// verifiers set up for it in `StoreReceipts+Verifiers.swift`. Reach it as `store.receipts`.
///
/// Everything here but `receiptIssuer()`, `writeAppReceipt()` and `signedAppTransaction()`
/// reads only the configuration and the files, and is callable from any thread.
public struct StoreReceipts: Sendable {
    let store: LocalAppStore

    private var configuration: LocalAppStoreConfiguration { store.configuration }

    /// Where the app receipt is written.
    public var receiptFileURL: URL { configuration.stateDirectory.appendingPathComponent("receipt") }

    /// Where the root certificate is exported (DER), for a server or `storefront receipt verify --root`.
    public var rootCertificateURL: URL {
        certificatesDirectoryURL.appendingPathComponent("root.cer")
    }

    /// The directory of the store's certificate chain.
    public var certificatesDirectoryURL: URL {
        configuration.stateDirectory.appendingPathComponent(LocalReceiptIssuer.certificatesDirectoryName)
    }

    /// This device's identifier (as `identifierForVendor`): a UUID kept in `STATE/device-id`,
    /// made on first use. Two processes making it at once agree on one.
    /// - Throws: the file system's error, or when the file holds no UUID.
    public func deviceIdentifier() throws -> UUID {
        let url = configuration.stateDirectory.appendingPathComponent("device-id")
        let fs = configuration.fileSystem
        // A hard link never replaces an existing file: whoever links first wins (`createOnce`).
        try fs.createDirectories(configuration.stateDirectory.path, mode: 0o700, enforcingMode: true)
        try fs.createOnce(
            url.path, with: Array((UUID().uuidString + "\n").utf8),
            temporaryPath: configuration.stateDirectory.appendingPathComponent(".device-id.\(UUID().uuidString).tmp")
                .path, mode: 0o644)
        let bytes = try fs.readFile(url.path) ?? []
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let identifier = UUID(uuidString: text) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return identifier
    }

    /// The signed-in account's download of the app (its `appTransactionId` and original
    /// purchase date), made on first use.
    /// - Throws: the file system's error, or when the file is damaged.
    public func appDownload() throws -> AppDownload {
        try AppDownload.loadOrCreate(
            in: configuration.stateDirectory.appendingPathComponent("AppTransactions"),
            accountID: configuration.account.id,
            appVersion: configuration.appVersion, now: configuration.clock.now, fileSystem: configuration.fileSystem)
    }

    /// The issuer for this store's bundle ID, app version, device and account, saying what the
    /// settings say now (environment, app Apple ID, the OCSP URL under `server-url`), over the
    /// chain in the state directory (made on first use; certificates for a new OCSP URL are
    /// issued for its keys).
    /// - Throws: `CryptoError` naming a damaged chain file, or the file system's error.
    public func receiptIssuer() async throws -> LocalReceiptIssuer {
        let settings = await store.perform { $0.state.settings }
        return try receiptIssuer(settings: settings)
    }

    /// The issuer for `settings` (see `receiptIssuer()`), with the receipt signer when
    /// `receiptSigner` (made on first use: an RSA key is slow to make, and JWS need none).
    /// - Throws: `CryptoError` naming a damaged chain file, or the file system's error.
    public func receiptIssuer(settings: LocalStoreSettings, receiptSigner: Bool = true) throws -> LocalReceiptIssuer {
        let identifier = try deviceIdentifier()
        let download = try appDownload()
        let issuer = try LocalReceiptIssuer.loadOrCreate(
            stateDirectory: configuration.stateDirectory,
            configuration: .init(
                bundleID: configuration.bundleID, appVersion: configuration.appVersion,
                originalAppVersion: download.originalApplicationVersion,
                deviceIdentifier: withUnsafeBytes(of: identifier.uuid) { Array($0) }, environment: settings.environment,
                appAppleID: settings.appAppleID, ocspURL: settings.ocspURL, appTransactionID: download.appTransactionID,
                originalPurchaseDate: download.originalPurchaseDate),
            catalog: configuration.catalog, now: configuration.clock.now, receiptSigner: receiptSigner,
            fileSystem: configuration.fileSystem)
        if !configuration.fileSystem.exists(rootCertificateURL.path) {
            try issuer.exportRoot(to: rootCertificateURL, fileSystem: configuration.fileSystem)
        }
        return issuer
    }

    /// Issues the app receipt for the account as it is now (finished consumables dropped,
    /// refunds with their cancellation date), writes it to `receiptFileURL` and returns it.
    /// - Throws: `LocalAppStoreError` when the state cannot be read, `CryptoError` when the
    ///   chain is damaged, or the file system's error.
    public func writeAppReceipt() async throws -> Data {
        try await store.perform { store in try Self.writeAppReceipt(in: store) }
    }

    /// The receipt written last, if any.
    public func storedAppReceipt() -> Data? {
        (try? configuration.fileSystem.readFile(receiptFileURL.path)).flatMap { $0.map { Data($0) } }
    }

    /// The signed-in account's app transaction on this device (JWS, ES256, `x5c` chain), as
    /// `AppTransaction.shared` gives it: signed now with a fresh device verification nonce.
    /// - Throws: `LocalAppStoreError` when the state cannot be read, `CryptoError` when the
    ///   chain is damaged, or the file system's error.
    public func signedAppTransaction() async throws -> String {
        try await store.perform { store in try Self.signedAppTransaction(in: store) }
    }

    // MARK: - On the store's executor

    /// `writeAppReceipt()`, from the journal as it is now.
    static func writeAppReceipt(in store: isolated LocalAppStore) throws -> Data {
        try store.refresh()
        let configuration = store.configuration
        let issuer = try store.receipts.issuer(for: store.state.settings, forReceipts: true)
        // A receipt carries no signed transactions: the entries go in as they are, unsigned
        // (signing each one would cost an ECDSA signature per transaction ever made).
        let entries = try PaymentQueue.accountEntries(in: store)
        let finished = Set(entries.lazy.filter(\.finished).map(\.id))
        let receipt = try issuer.issueReceipt(
            transactions: entries.map(\.transaction), finishedTransactionIDs: finished, now: configuration.clock.now)
        // A read-only store issues the receipt without keeping it.
        if !configuration.readOnly {
            try LocalReceiptIssuer.write(
                receipt, to: store.receipts.receiptFileURL, fileSystem: configuration.fileSystem)
        }
        return receipt
    }

    /// `signedAppTransaction()`, under the journal's settings as they are now.
    static func signedAppTransaction(in store: isolated LocalAppStore) throws -> String {
        try store.refresh()
        return try store.receipts.issuer(for: store.state.settings).signedAppTransaction(
            now: store.configuration.clock.now)
    }
}

extension LocalAppStore {
    /// The store's receipts and signing chain: the receipt file, the root certificate, the
    /// device identifier, the issuer, the app transaction and OCSP answers.
    public nonisolated var receipts: StoreReceipts { StoreReceipts(store: self) }
}
