import Foundation

/// How the local App Store behaves: Ask to Buy, simulated errors, latency…
///
/// Read from the catalog's `settings` at the first start, then persisted in the store's
/// journal and changed at run time with `set(name:value:)`.
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
    // The App Store Server's verifyReceipt compares `password` with this (helper "facts" moves
    // it into the settings registry with the others).
    /// The app's shared secret for `verifyReceipt` (`password`); nil accepts any or none.
    public var sharedSecret: String?

    /// The time rate as a value (real time for a raw value Apple never defined).
    public var storeTimeRate: StoreTimeRate { StoreTimeRate(rawValue: timeRate) ?? .realTime }

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

    private enum CodingKeys: String, CodingKey {
        case latencyMilliseconds, askToBuy, paymentsAllowed, interruptPurchases
        case failPurchases, failLoadProducts, failRestore, failRefreshReceipt
        case bandwidthBytesPerSecond, failDownloadsAtPercent
        case timeRate, billingRetryOnRenewal, gracePeriod
        case sharedSecret
    }

    /// Decodes settings; keys an older version did not write take their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        latencyMilliseconds = try c.decodeIfPresent(Int.self, forKey: .latencyMilliseconds) ?? Self.defaultLatencyMilliseconds
        askToBuy = try c.decodeIfPresent(Bool.self, forKey: .askToBuy) ?? false
        paymentsAllowed = try c.decodeIfPresent(Bool.self, forKey: .paymentsAllowed) ?? true
        interruptPurchases = try c.decodeIfPresent(Bool.self, forKey: .interruptPurchases) ?? false
        failPurchases = try c.decodeIfPresent(SimulatedError.self, forKey: .failPurchases)
        failLoadProducts = try c.decodeIfPresent(SimulatedError.self, forKey: .failLoadProducts)
        failRestore = try c.decodeIfPresent(SimulatedError.self, forKey: .failRestore)
        failRefreshReceipt = try c.decodeIfPresent(SimulatedError.self, forKey: .failRefreshReceipt)
        bandwidthBytesPerSecond = try c.decodeIfPresent(Int.self, forKey: .bandwidthBytesPerSecond) ?? Self.defaultBandwidthBytesPerSecond
        failDownloadsAtPercent = try c.decodeIfPresent(Int.self, forKey: .failDownloadsAtPercent)
        timeRate = try c.decodeIfPresent(Int.self, forKey: .timeRate) ?? 0
        billingRetryOnRenewal = try c.decodeIfPresent(Bool.self, forKey: .billingRetryOnRenewal) ?? false
        gracePeriod = try c.decodeIfPresent(Bool.self, forKey: .gracePeriod) ?? false
        sharedSecret = try c.decodeIfPresent(String.self, forKey: .sharedSecret)
    }

    // MARK: - By name, for the CLI

    /// The names `set(name:value:)` accepts, in display order.
    public static let names = [
        "latency", "ask-to-buy", "fail-purchases", "payments-allowed", "interrupt-purchases",
        "fail-load-products", "fail-restore", "fail-refresh-receipt", "bandwidth", "fail-downloads-at",
        "time-rate", "billing-retry", "grace-period", "shared-secret",
    ]

    private static let errorValues = "off, on or an error name (\(SimulatedError.all.map(\.rawValue).joined(separator: ", ")))"

    /// Every setting with its value and description, in display order.
    public var entries: [StoreSetting] {
        func flag(_ on: Bool) -> String { on ? "on" : "off" }
        func error(_ value: SimulatedError?) -> String { value?.rawValue ?? "off" }
        return [
            StoreSetting(name: "latency", value: String(latencyMilliseconds),
                         description: "milliseconds each store step takes (0 for tests)"),
            StoreSetting(name: "ask-to-buy", value: flag(askToBuy),
                         description: "on|off: purchases wait for `store approve` or `store decline`"),
            StoreSetting(name: "fail-purchases", value: error(failPurchases),
                         description: "off|on|ERROR: purchases fail; ERROR is one of \(SimulatedError.all.map(\.rawValue).joined(separator: ", "))"),
            StoreSetting(name: "payments-allowed", value: flag(paymentsAllowed),
                         description: "on|off: whether the account may make payments"),
            StoreSetting(name: "interrupt-purchases", value: flag(interruptPurchases),
                         description: "on|off: purchases wait for `store resolve`, then complete"),
            StoreSetting(name: "fail-load-products", value: error(failLoadProducts),
                         description: "off|on|ERROR (as fail-purchases): loading products fails"),
            StoreSetting(name: "fail-restore", value: error(failRestore),
                         description: "off|on|ERROR (as fail-purchases): restoring purchases fails"),
            StoreSetting(name: "fail-refresh-receipt", value: error(failRefreshReceipt),
                         description: "off|on|ERROR (as fail-purchases): refreshing the receipt fails"),
            StoreSetting(name: "bandwidth", value: String(bandwidthBytesPerSecond),
                         description: "bytes per second hosted content downloads at (0 = unlimited)"),
            StoreSetting(name: "fail-downloads-at", value: failDownloadsAtPercent.map { "\($0)" } ?? "off",
                         description: "PERCENT|off: downloads fail when they reach this share of their content"),
            StoreSetting(name: "time-rate", value: storeTimeRate.description,
                         description: "how fast subscriptions renew: a raw SKTestTimeRate value or its name (0 real time, 15 monthly-every-30-seconds, 1005 every-2-seconds…)"),
            StoreSetting(name: "billing-retry", value: flag(billingRetryOnRenewal),
                         description: "on|off: renewals fail with a billing problem and enter billing retry"),
            StoreSetting(name: "grace-period", value: flag(gracePeriod),
                         description: "on|off: a failed renewal keeps access for a grace period"),
            StoreSetting(name: "shared-secret", value: sharedSecret ?? "off",
                         description: "SECRET|off: the app's shared secret verifyReceipt checks `password` against"),
        ]
    }

    /// Changes the setting `name` to `value` given as text.
    ///
    /// - Parameters:
    ///   - name: one of `names`.
    ///   - value: `on`/`off` for switches, milliseconds for `latency`, `off`, `on` or an
    ///     error name for the `fail-…` settings.
    /// - Throws: `LocalAppStoreError.unknownSetting` or `.invalidSettingValue` naming what is accepted.
    public mutating func set(name: String, value: String) throws(LocalAppStoreError) {
        let text = value.trimmingCharacters(in: .whitespaces).lowercased()
        switch name {
        case "latency":
            guard let ms = Int(text), ms >= 0, ms <= 600_000 else {
                throw .invalidSettingValue(name: name, value: value, accepted: "a whole number of milliseconds from 0 to 600000")
            }
            latencyMilliseconds = ms
        case "ask-to-buy": askToBuy = try Self.flag(name, value, text)
        case "payments-allowed": paymentsAllowed = try Self.flag(name, value, text)
        case "interrupt-purchases": interruptPurchases = try Self.flag(name, value, text)
        case "fail-purchases": failPurchases = try Self.error(name, value, text, on: .unknown)
        case "fail-load-products": failLoadProducts = try Self.error(name, value, text, on: .network)
        case "fail-restore": failRestore = try Self.error(name, value, text, on: .network)
        case "fail-refresh-receipt": failRefreshReceipt = try Self.error(name, value, text, on: .network)
        case "time-rate":
            guard let rate = StoreTimeRate(parsing: text) else {
                throw .invalidSettingValue(
                    name: name, value: value,
                    accepted: "a raw SKTestTimeRate value or name: " + StoreTimeRate.all.map { "\($0.rawValue) \($0.name)" }.joined(separator: ", "))
            }
            timeRate = rate.rawValue
        case "billing-retry": billingRetryOnRenewal = try Self.flag(name, value, text)
        case "grace-period": gracePeriod = try Self.flag(name, value, text)
        case "shared-secret":
            let secret = value.trimmingCharacters(in: .whitespaces)
            if ["off", "none"].contains(text) {
                sharedSecret = nil
            } else {
                guard (1...64).contains(secret.count), secret.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                    throw .invalidSettingValue(name: name, value: value, accepted: "off or 1 to 64 letters and digits (App Store Connect's are 32 hex digits)")
                }
                sharedSecret = secret
            }
        case "bandwidth":
            guard let rate = Int(text), rate >= 0, rate <= 1 << 40 else {
                throw .invalidSettingValue(name: name, value: value, accepted: "a whole number of bytes per second (0 = unlimited)")
            }
            bandwidthBytesPerSecond = rate
        case "fail-downloads-at":
            if ["off", "false", "no"].contains(text) {
                failDownloadsAtPercent = nil
            } else {
                let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
                guard let percent = Int(digits), percent >= 0, percent <= 99 else {
                    throw .invalidSettingValue(name: name, value: value, accepted: "off or a percentage from 0 to 99")
                }
                failDownloadsAtPercent = percent
            }
        default: throw .unknownSetting(name: name, known: Self.names)
        }
    }

    private static func flag(_ name: String, _ value: String, _ text: String) throws(LocalAppStoreError) -> Bool {
        switch text {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw .invalidSettingValue(name: name, value: value, accepted: "on or off")
        }
    }

    private static func error(
        _ name: String, _ value: String, _ text: String, on: SimulatedError
    ) throws(LocalAppStoreError) -> SimulatedError? {
        switch text {
        case "off", "false", "no", "0": return nil
        case "on", "true", "yes", "1": return on
        default:
            guard let known = SimulatedError.all.first(where: { $0.rawValue == text }) else {
                throw .invalidSettingValue(name: name, value: value, accepted: errorValues)
            }
            return known
        }
    }
}
