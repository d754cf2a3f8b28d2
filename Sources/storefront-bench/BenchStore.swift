import Foundation
import LocalAppStore

/// The local store a bench seeds: in a data directory (created), zero latency, writes not
/// `fsync`ed (a seed's speed, not its durability, is what the bench needs).
enum BenchStore {
    /// Opens the store of `dataDirectory` on `catalog`, creating the directory.
    static func seeding(_ catalog: StoreKitConfiguration, in dataDirectory: URL) throws -> LocalAppStore {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        return try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: catalog,
                stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: dataDirectory),
                initialLatencyMilliseconds: 0
            ).syncing(false))
    }
}
