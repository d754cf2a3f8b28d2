import Catalog
import Foundation
import LocalAppStore
import StoreCore
import SystemIO
import Vault

/// The engine over the local App Store, opened on the data directory for one command.
struct StoreSession {
    let selection: CatalogSelection
    let dataDirectory: URL
    let backend: LocalAppStore
    let store: Store
    /// Whether the data directory was opened read-only (see `open`'s `readsOnly`).
    var readOnly: Bool { backend.configuration.readOnly }

    /// Opens the data directory (creating it, mode 0700), the local store and the ledger, and
    /// starts the engine: purchases left unfinished by an earlier process are delivered now.
    /// - Parameters:
    ///   - durations: how long non-renewing subscriptions last, for entitlements.
    ///   - verifiesAppTransaction: trust the store's root for `Store.appTransaction()` (its
    ///     chain is made now when it is the first use).
    ///   - contentFiles: whose hosted content files the catalog's load checks (`buy` checks only
    ///     the product it sells: another's damaged content does not stop the sale).
    ///   - readsOnly: the command only reads: when the data directory (or its store or vault)
    ///     may not be written, it is opened read-only instead of refused — no lock, lease or
    ///     write, and the engine is not started (nothing is delivered or renewed).
    /// - Throws: `CLIError.runtime` naming the path when state cannot be opened.
    static func open(
        _ invocation: Invocation, context: CommandContext, durations: NonRenewingDurations = .storefront,
        verifiesAppTransaction: Bool = false, contentFiles: ContentFileCheck = .all, readsOnly: Bool = false
    ) async throws(CLIError) -> StoreSession {
        let faultHook = try FaultInjection.hook(environment: context.environment)
        let fileSystem = try FaultInjection.fileSystem(environment: context.environment)
        let (selection, dataDirectory, backend) = try await openBackend(
            invocation, context: context, faultHook: faultHook, fileSystem: fileSystem, contentFiles: contentFiles,
            readsOnly: readsOnly)
        let readOnly = backend.configuration.readOnly
        // The purchases live in the account's encrypted vault (DATA/vault.sfv, another account's
        // in DATA/accounts/ID), unlocked by the key file beside it or by STOREFRONT_PASSPHRASE
        // (asked at the terminal when the vault needs one).
        let ledger: any PurchaseLedger
        let vaultDirectory = SignedInAccount.vaultDirectory(of: backend.configuration.account.id, in: dataDirectory)
        let vaultPath = vaultDirectory.appendingPathComponent("vault.sfv").path
        do {
            if !readOnly, vaultDirectory != dataDirectory {
                try fileSystem.createDirectories(vaultDirectory.path, mode: 0o700)
            }
            if readOnly, !fileSystem.exists(vaultPath) {
                ledger = AbsentLedger(path: vaultPath)
            } else {
                ledger = try VaultLedger.open(
                    inDataDirectory: vaultDirectory, environment: context.environment, faultHook: faultHook,
                    prompt: CurrentProcess.isTerminal(.input) ? TerminalPassphrasePrompt() : nil,
                    fileSystem: fileSystem,
                    readOnly: readOnly)
            }
        } catch {
            throw .runtime("cannot open the purchase vault: \(error)")
        }
        // Downloads wait for the command that shows them (buy, downloads resume), so a short
        // command never starts a download it would not wait for.
        let hosting = selection.catalog.contentHosting
        let downloads = DownloadConfiguration(
            dataDirectory: dataDirectory,
            contentDownloader: hosting.isEmpty ? nil : HTTPContentDownloader(baseURLs: hosting),
            startsAutomatically: false,
            fileSystem: fileSystem)
        var appTransactionVerifier: AppTransactionVerifier?
        if verifiesAppTransaction {
            do {
                appTransactionVerifier = try await backend.appTransactionVerifier()
            } catch {
                throw .runtime("cannot set up app transaction verification: \(error.description)")
            }
        }
        let store = Store(
            backend: backend, ledger: ledger,
            configuration: StoreConfiguration(
                faultHook: faultHook, entitlements: durations.calculator, downloads: downloads,
                appTransactionVerifier: appTransactionVerifier))
        // Read-only, the engine reads the ledger and the store as they are: starting it would
        // deliver what waits, which writes.
        if !readOnly { await store.start() }
        return StoreSession(selection: selection, dataDirectory: dataDirectory, backend: backend, store: store)
    }

    /// Opens only the local App Store (its transaction manager needs no engine), signed in to
    /// the command's account (`SignedInAccount`), in its storefront unless `--storefront` says.
    /// - Parameters:
    ///   - fileSystem: the file system (`STOREFRONT_FAIL_IO`'s when not given).
    ///   - contentFiles: whose hosted content files the catalog's load checks (see `open`).
    ///   - readsOnly: open it read-only when the data directory may not be written (see `open`).
    /// - Throws: `CLIError.runtime` when the store cannot be opened or the account is unknown.
    static func openBackend(
        _ invocation: Invocation, context: CommandContext, faultHook: @escaping FaultHook = { _ in },
        fileSystem given: (any FileSystem)? = nil, contentFiles: ContentFileCheck = .all, readsOnly: Bool = false
    ) async throws(CLIError) -> (CatalogSelection, URL, LocalAppStore) {
        let fileSystem: any FileSystem
        if let given {
            fileSystem = given
        } else {
            fileSystem = try FaultInjection.fileSystem(environment: context.environment)
        }
        let selection = try CatalogSelection.load(invocation.global, context: context, contentFiles: contentFiles)
        let path = try DataDirectory.resolve(
            option: invocation.global.dataDirectory, environment: context.environment,
            currentDirectory: context.currentDirectory)
        let dataDirectory = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try fileSystem.createDirectories(path, mode: 0o700)
        } catch {
            throw .runtime("cannot create the data directory \(path): \(DataDirectory.explain(error))")
        }
        let readOnly = readsOnly && DataDirectory.unwritablePart(path, fileSystem: fileSystem) != nil
        do {
            if !readOnly { try fileSystem.checkWritable(path) }
        } catch {
            throw .runtime(
                "the data directory \(path) is not writable (\(error.errno)); storefront never changes its permissions: "
                    + "make it writable (chmod u+w \(path)) or choose another with --data-dir")
        }
        let accountID = try SignedInAccount.id(
            option: invocation.global.account, dataDirectory: dataDirectory, fileSystem: fileSystem)
        let backend: LocalAppStore
        do {
            backend = try LocalAppStore(
                configuration: LocalAppStoreConfiguration(
                    catalog: selection.catalog,
                    stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: dataDirectory),
                    account: accountID == StoreAccount.localTester.id
                        ? .localTester : StoreAccount(id: accountID, displayName: accountID),
                    storefront: selection.storefront, locale: selection.locale, readOnly: readOnly
                ).keeping(through: fileSystem).injecting(faults: faultHook))
        } catch {
            throw .runtime("cannot open the local App Store: \(error.description)")
        }
        guard accountID != StoreAccount.localTester.id else { return (selection, dataDirectory, backend) }
        do {
            let account = try await backend.familySharing.account(accountID)
            if invocation.global.storefront == nil, let code = account.storefront {
                try await backend.settings.setStorefront(code, locale: invocation.global.locale)
            }
        } catch {
            let source = invocation.global.account != nil ? "--account" : SignedInAccount.file(in: dataDirectory)
            throw .runtime("\(source): \(error.description)")
        }
        return (selection, dataDirectory, backend)
    }

    /// Stops the engine; what it started has been handled. No receipt is issued here: the
    /// receipt lists the whole history, so it is issued on demand (`receipt`, a verifier that
    /// reads it, `refreshReceipt`), never at every command's close.
    func close() async {
        await store.stop()
    }
}
