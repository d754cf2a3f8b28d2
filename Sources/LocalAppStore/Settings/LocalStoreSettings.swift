import Foundation

/// How the local App Store behaves: Ask to Buy, simulated errors, latency…
///
/// Read from the catalog's `settings` at the first start, then persisted in the store's
/// journal and changed at run time with `set(name:value:)`. Each property is declared once as
/// a setting in `LocalStoreSettings.registry` (name, label, help, values, persisted key): a
/// new setting is a property with its default here plus one declaration there.
public struct LocalStoreSettings: Codable, Hashable, Sendable {
    /// How long each step of the store takes (loading products, a purchase, a restore), in ms.
    public var latencyMilliseconds: Int
    /// Purchases wait for a parent's approval (deferred until approved or declined).
    public var askToBuy: Bool
    /// Whether the account may make payments at all.
    public var paymentsAllowed: Bool
    /// Purchases are interrupted (deferred) until `resolve` completes them.
    public var interruptPurchases: Bool
    /// Purchases fail with this error.
    public var failPurchases: SimulatedError?
    /// Loading products fails with this error.
    public var failLoadProducts: SimulatedError?
    /// Restoring purchases fails with this error.
    public var failRestore: SimulatedError?
    /// Refreshing the receipt fails with this error.
    public var failRefreshReceipt: SimulatedError?

    /// Hosted-content download speed in bytes per second; 0 is unlimited.
    public var bandwidthBytesPerSecond: Int = LocalStoreSettings.defaultBandwidthBytesPerSecond
    /// Downloads fail when they reach this percentage of their content; `nil` never.
    public var failDownloadsAtPercent: Int?
    /// How fast subscriptions renew: Apple's `SKTestTimeRate` raw value (0 = real time).
    public var timeRate: Int = 0
    /// Renewals fail with a billing problem and enter billing retry (`_renewalBillingIssuesEnabled`).
    public var billingRetryOnRenewal = false
    /// A failed renewal keeps access for a grace period (`_billingGracePeriodEnabled`).
    public var gracePeriod = false
    /// The environment every signed item and receipt names, as stored (see `environment`).
    public var rawEnvironment = LocalStoreSettings.defaultEnvironment.rawValue
    /// The app's Apple ID, which Production receipts and app transactions carry.
    public var appAppleID = LocalStoreSettings.defaultAppAppleID
    /// The local App Store Server's base URL; the certificates name its `/ocsp` as responder.
    public var serverURL = LocalStoreSettings.defaultServerURL
    /// The app's shared secret for `verifyReceipt` (`password`); nil accepts any or none.
    public var sharedSecret: String?
    /// Where App Store Server Notifications V2 are POSTed; nil sends none (and records none).
    public var notificationURL: String?
    /// How failed notifications are retried, as stored (see `notificationRetries`).
    public var rawNotificationRetries = NotificationRetryPolicy.production.rawValue
    /// How long a notification's receiver has to answer, in milliseconds.
    public var notificationTimeoutMilliseconds = LocalStoreSettings.defaultNotificationTimeoutMilliseconds
    /// Whether retention images and messages wait in review (`PENDING`) until `store approve-…`
    /// or `reject-…`; otherwise they are approved at once.
    public var retentionReview = false
    /// How long a Get Retention Message endpoint has to answer, in milliseconds (Apple's
    /// performance test asks about 700).
    public var realtimeTimeoutMilliseconds = LocalStoreSettings.defaultRealtimeTimeoutMilliseconds

    /// The time rate as a value (real time for a raw value Apple never defined).
    public var storeTimeRate: StoreTimeRate { StoreTimeRate(rawValue: timeRate) ?? .realTime }

    /// One step of the store (`latencyMilliseconds`) as a duration.
    var latency: Duration { .milliseconds(latencyMilliseconds) }

    /// How long a Get Retention Message endpoint has to answer by default: Apple's "approximately 700 ms".
    public static let defaultRealtimeTimeoutMilliseconds = 700

    /// The default download speed for people: slow enough to watch a progress bar (1.5 MB/s).
    public static let defaultBandwidthBytesPerSecond = 1_500_000

    /// The default latency for people: about what one step of the real App Store takes.
    public static let defaultLatencyMilliseconds = 600

    /// Creates settings; by default everything works, with the default latency.
    public init(
        latencyMilliseconds: Int = LocalStoreSettings.defaultLatencyMilliseconds, askToBuy: Bool = false,
        paymentsAllowed: Bool = true, interruptPurchases: Bool = false, failPurchases: SimulatedError? = nil,
        failLoadProducts: SimulatedError? = nil, failRestore: SimulatedError? = nil,
        failRefreshReceipt: SimulatedError? = nil
    ) {
        self.latencyMilliseconds = latencyMilliseconds
        self.askToBuy = askToBuy
        self.paymentsAllowed = paymentsAllowed
        self.interruptPurchases = interruptPurchases
        self.failPurchases = failPurchases
        self.failLoadProducts = failLoadProducts
        self.failRestore = failRestore
        self.failRefreshReceipt = failRefreshReceipt
    }

    /// Decodes settings by their declarations' keys; keys an older version did not write take
    /// their defaults, and keys a newer version wrote are ignored.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: SettingKey.self)
        for setting in Self.registry { try setting.decode(from: container, into: &self) }
    }

    /// Encodes every declared setting under its key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SettingKey.self)
        for setting in Self.registry { try setting.encode(self, into: &container) }
    }
}
