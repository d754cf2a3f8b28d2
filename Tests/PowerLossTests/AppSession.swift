import Catalog
import Foundation
import LocalAppStore
import StoreCore
import StoreTesting
import SystemIO

/// The app as `storefront` wires it, in this process: the local App Store, the engine and its
/// vault ledger, downloads on, all through one file system and one manual clock.
struct AppSession {
    let backend: LocalAppStore
    let ledger: VaultLedger
    let store: Store

    /// Opens the data directory `data`, starts the engine (the backlog is handled), runs `body`,
    /// stops the engine, and returns once the store and the engine are gone (their lease file
    /// with them), so nothing of this run touches the directory afterwards.
    /// - Parameter ledger: the ledger to use instead of the vault `VaultLedger.open` opens.
    static func with<T>(
        _ data: URL, catalog: StoreKitConfiguration, clock: ManualClock, fileSystem: any FileSystem = POSIXFileSystem(),
        ledger: (() throws -> VaultLedger)? = nil, _ body: (AppSession) async throws -> T
    ) async throws -> T {
        weak var backendReference: LocalAppStore?
        weak var storeReference: Store?
        let result: T
        do {
            let backend = try LocalAppStore(
                configuration: LocalAppStoreConfiguration(
                    catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
                    clock: clock, initialLatencyMilliseconds: 0
                ).keeping(through: fileSystem))
            let vault =
                try ledger?()
                ?? VaultLedger.open(
                    inDataDirectory: data, environment: [:], prompt: nil, clock: clock, fileSystem: fileSystem)
            let store = Store(
                backend: backend, ledger: vault,
                configuration: StoreConfiguration(
                    notificationCenter: NotificationCenter(), clock: clock,
                    downloads: DownloadConfiguration(dataDirectory: data, checkpointBytes: 4096, fileSystem: fileSystem)
                ))
            backendReference = backend
            storeReference = store
            await store.start()
            let session = AppSession(backend: backend, ledger: vault, store: store)
            do {
                result = try await body(session)
            } catch {
                await store.stop()
                throw error
            }
            await store.stop()
        }
        var turns = 0
        while backendReference != nil || storeReference != nil, turns < 1_000_000 {
            turns += 1
            await Task.yield()
        }
        guard backendReference == nil, storeReference == nil else {
            throw SessionError("the app's store was never released")
        }
        return result
    }

    /// Buys `productID` and returns the delivered transaction.
    /// - Throws: when the purchase does not end purchased.
    func buy(_ productID: String, quantity: Int = 1) async throws -> StoreCore.Transaction {
        let result = await store.purchase(productID, quantity: quantity)
        guard case .purchased(let transaction) = result else {
            throw SessionError("buying \(productID) ended \(result)")
        }
        return transaction
    }

    /// Waits until the download of `transactionID` settles and returns its state.
    func waitForDownload(_ transactionID: String) async throws -> DownloadState {
        guard let downloads = store.downloads else { throw SessionError("downloads are off") }
        try await downloads.resume(transactionID)
        return try await downloads.waitUntilSettled(transactionID).state
    }
}

/// A step of a scenario that did not go as the scenario needs.
struct SessionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
