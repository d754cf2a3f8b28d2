import Foundation
import StoreCore
package import SystemIO

/// Everything a `LocalAppStore` is made with; immutable once made.
public struct LocalAppStoreConfiguration: Sendable {
    /// The loaded catalog: the products the store sells, its settings, its prices.
    public let catalog: StoreKitConfiguration
    /// Where the store keeps its state (created with mode 0700), e.g. `DATA/store`.
    public let stateDirectory: URL
    /// The signed-in account.
    public let account: StoreAccount
    /// The storefront at start; `nil` for the catalog's `_storefront` (else the United States).
    public let storefront: Storefront?
    /// The locale at start, e.g. `ja_JP`; `nil` for the catalog's `_locale`, else the storefront's.
    public let locale: String?
    /// The store's only source of time: `SystemClock` in production, `ManualClock` in tests.
    public let clock: any StoreClock
    /// Called at each fault point (`.afterCharge`: the charge is durable, the app not told yet);
    /// a test's or the CLI's fault variables' switch (`injecting(faults:)`).
    package private(set) var faultHook: FaultHook = { _ in }
    /// The app's bundle identifier, for receipts.
    public let bundleID: String
    /// The app's version, for receipts.
    public let appVersion: String
    /// The latency a new store starts with, in milliseconds (the `latency` setting persists
    /// after that): `LocalStoreSettings.defaultLatencyMilliseconds` for people, 0 for tests.
    public let initialLatencyMilliseconds: Int
    /// Whether writes are `fsync`ed (the default). `false` is only for benchmarks and tests
    /// that seed a long history quickly (`syncing(_:)`): a power loss may then lose acknowledged
    /// purchases.
    package private(set) var syncsWrites = true
    /// Whether the store only reads its state (a directory this process may not write): no
    /// lock or owner lease is taken, nothing is compacted, written or delivered, and every
    /// operation that would write fails naming the state directory.
    public let readOnly: Bool
    /// The file system the state is kept through (tests wrap it to make a call fail).
    package private(set) var fileSystem: any FileSystem = POSIXFileSystem()

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - catalog: the loaded `.storekit` catalog.
    ///   - stateDirectory: the store's state directory (see `stateDirectory(inDataDirectory:)`).
    ///   - account: the signed-in account.
    ///   - storefront: the storefront at start (`nil`: the catalog's).
    ///   - locale: the locale at start (`nil`: the catalog's, else the storefront's).
    ///   - clock: the clock latencies and dates come from.
    ///   - bundleID: the app's bundle identifier.
    ///   - appVersion: the app's version.
    ///   - initialLatencyMilliseconds: the latency of a new store.
    ///   - readOnly: only read the state (see `readOnly`).
    public init(
        catalog: StoreKitConfiguration, stateDirectory: URL, account: StoreAccount = .localTester,
        storefront: Storefront? = nil, locale: String? = nil, clock: any StoreClock = SystemClock(),
        bundleID: String = "com.storefront.demo", appVersion: String = "1.0",
        initialLatencyMilliseconds: Int = LocalStoreSettings.defaultLatencyMilliseconds, readOnly: Bool = false
    ) {
        self.catalog = catalog
        self.stateDirectory = stateDirectory
        self.account = account
        self.storefront = storefront
        self.locale = locale
        self.clock = clock
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.initialLatencyMilliseconds = initialLatencyMilliseconds
        self.readOnly = readOnly
    }

    /// This configuration with the state kept through `fileSystem` (tests wrap it to make a call fail).
    package func keeping(through fileSystem: any FileSystem) -> LocalAppStoreConfiguration {
        var configuration = self
        configuration.fileSystem = fileSystem
        return configuration
    }

    /// This configuration with `hook` called at each fault point (tests, the CLI's fault variables).
    package func injecting(faults hook: @escaping FaultHook) -> LocalAppStoreConfiguration {
        var configuration = self
        configuration.faultHook = hook
        return configuration
    }

    /// This configuration with writes `fsync`ed or not (`false` only for benchmarks and tests).
    package func syncing(_ syncsWrites: Bool) -> LocalAppStoreConfiguration {
        var configuration = self
        configuration.syncsWrites = syncsWrites
        return configuration
    }

    /// The store's state directory inside a data directory: `DATA/store`.
    public static func stateDirectory(inDataDirectory dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent("store", isDirectory: true)
    }
}
