import Foundation
internal import Receipts
import StoreCore
internal import SystemIO

/// The local App Store's receipts: the chain lives in `STATE/Certificates/`, the device
/// identifier in `STATE/device-id`, each account's app download in `STATE/AppTransactions/`,
/// the receipt in `STATE/receipt`, and the root is exported as `STATE/Certificates/root.cer`.
/// All of them are written through the configuration's `FileSystem` (SystemIO), durably: the
/// recording file layer and the fault injection see them as they see the journal.
extension LocalAppStore {
    /// Where the app receipt is written.
    public nonisolated var receiptFileURL: URL { configuration.stateDirectory.appendingPathComponent("receipt") }

    /// Where the root certificate is exported (DER), for a server or `storefront receipt verify --root`.
    public nonisolated var rootCertificateURL: URL {
        certificatesDirectoryURL.appendingPathComponent("root.cer")
    }

    /// The directory of the store's certificate chain.
    public nonisolated var certificatesDirectoryURL: URL {
        configuration.stateDirectory.appendingPathComponent(LocalReceiptIssuer.certificatesDirectoryName)
    }

    /// This device's identifier (as `identifierForVendor`): a UUID kept in `STATE/device-id`,
    /// made on first use. Two processes making it at once agree on one.
    /// - Throws: the file system's error, or when the file holds no UUID.
    public nonisolated func deviceIdentifier() throws -> UUID {
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
    public nonisolated func appDownload() throws -> AppDownload {
        try AppDownload.loadOrCreate(
            in: configuration.stateDirectory.appendingPathComponent("AppTransactions"),
            accountID: configuration.account.id,
            appVersion: configuration.appVersion, now: configuration.clock.now, fileSystem: configuration.fileSystem)
    }

    /// The issuer for this store's bundle ID, app version, device and account, saying what the
    /// settings say (environment, app Apple ID, the OCSP URL under `server-url`), over the chain
    /// in the state directory (made on first use; certificates for a new OCSP URL are issued
    /// for its keys).
    /// - Throws: `CryptoError` naming a damaged chain file, or the file system's error.
    public func receiptIssuer() throws -> LocalReceiptIssuer {
        try receiptIssuer(settings: journal.state.settings)
    }

    /// The issuer for `settings` (see `receiptIssuer()`), with the receipt signer when
    /// `receiptSigner` (made on first use: an RSA key is slow to make, and JWS need none).
    /// Callable from any thread: it reads only the chain's files and the configuration.
    public nonisolated func receiptIssuer(
        settings: LocalStoreSettings, receiptSigner: Bool = true
    ) throws -> LocalReceiptIssuer {
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
    /// - Throws: `LocalAppStoreError`/`StoreError` when the state cannot be read, `CryptoError`
    ///   when the chain is damaged, or the file system's error.
    public func writeAppReceipt() async throws -> Data {
        try refresh()
        let issuer = try currentSigner(forReceipts: true)
        // A receipt carries no signed transactions: the entries go in as they are, unsigned
        // (signing each one would cost an ECDSA signature per transaction ever made).
        let entries = try accountEntries()
        let finished = Set(entries.lazy.filter(\.finished).map(\.id))
        let receipt = try issuer.issueReceipt(
            transactions: entries.map(\.transaction), finishedTransactionIDs: finished, now: configuration.clock.now)
        // A read-only store issues the receipt without keeping it.
        if !configuration.readOnly {
            try LocalReceiptIssuer.write(receipt, to: receiptFileURL, fileSystem: configuration.fileSystem)
        }
        return receipt
    }

    /// The receipt written last, if any.
    public nonisolated func storedAppReceipt() -> Data? {
        (try? configuration.fileSystem.readFile(receiptFileURL.path)).flatMap { $0.map { Data($0) } }
    }
}
