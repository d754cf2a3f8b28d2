extension LocalStoreSettings {
    /// Every setting, declared once, in display order. Each default is among its presets, so a
    /// picker can always come back to it (`SettingsRegistryTests`).
    public static let registry: [SettingDefinition] = [
        SettingDefinition(
            "latency", label: "Latency (ms)",
            values: .milliseconds(in: 0...600_000, presets: [0, 250, defaultLatencyMilliseconds, 1000, 3000]),
            help: "how long each store step takes (loading products, a purchase, a restore); 0 for tests",
            key: "latencyMilliseconds", \.latencyMilliseconds),
        SettingDefinition(
            "ask-to-buy", label: "Ask to Buy", values: .onOff,
            help: "purchases wait for 'store approve ID' or 'store decline ID'", key: "askToBuy", \.askToBuy),
        SettingDefinition(
            "fail-purchases", label: "Simulated purchase errors", values: .simulatedError(on: .unknown),
            help: "purchases fail with this error (on: unknown)", key: "failPurchases", \.failPurchases),
        SettingDefinition(
            "payments-allowed", label: "Payments allowed", values: .onOff,
            help: "whether the account may make payments", key: "paymentsAllowed", \.paymentsAllowed),
        SettingDefinition(
            "interrupt-purchases", label: "Interrupted purchases", values: .onOff,
            help: "purchases wait for 'store resolve ID', then complete", key: "interruptPurchases",
            \.interruptPurchases),
        SettingDefinition(
            "fail-load-products", label: "Simulated load-products errors", values: .simulatedError(on: .network),
            help: "loading products fails with this error (on: network)", key: "failLoadProducts", \.failLoadProducts),
        SettingDefinition(
            "fail-restore", label: "Simulated restore errors", values: .simulatedError(on: .network),
            help: "restoring purchases fails with this error (on: network)", key: "failRestore", \.failRestore),
        SettingDefinition(
            "fail-refresh-receipt", label: "Simulated receipt errors", values: .simulatedError(on: .network),
            help: "refreshing the receipt fails with this error (on: network)", key: "failRefreshReceipt",
            \.failRefreshReceipt),
        SettingDefinition(
            "bandwidth", label: "Download bandwidth (bytes/s)",
            values: .number(
                in: 0...(1 << 40), placeholder: "BYTES_PER_SECOND",
                accepted: "a whole number of bytes per second (0 = unlimited)",
                presets: [0, 250_000, 1_000_000, defaultBandwidthBytesPerSecond, 5_000_000]),
            help: "how fast hosted content downloads, in bytes per second; 0 is unlimited",
            key: "bandwidthBytesPerSecond", \.bandwidthBytesPerSecond),
        SettingDefinition(
            "fail-downloads-at", label: "Fail downloads at (%)", values: .percentOrOff,
            help: "downloads fail when they reach this share of their content", key: "failDownloadsAtPercent",
            \.failDownloadsAtPercent),
        SettingDefinition(
            "time-rate", label: "Time rate", values: .timeRate,
            help: "how fast subscriptions renew: Apple's SKTestTimeRate raw value or its name "
                + "(0 real-time, 15 monthly-every-30-seconds, 1005 every-2-seconds…)",
            key: "timeRate", \.timeRate),
        SettingDefinition(
            "billing-retry", label: "Billing retry on renewal", values: .onOff,
            help: "renewals fail with a billing problem and enter billing retry", key: "billingRetryOnRenewal",
            \.billingRetryOnRenewal),
        SettingDefinition(
            "grace-period", label: "Grace period", values: .onOff,
            help: "a failed renewal keeps access for a grace period", key: "gracePeriod", \.gracePeriod),
        SettingDefinition(
            "environment", label: "Environment", values: .environment,
            help: "the environment signed transactions, renewal info, app transactions and receipts name",
            key: "environment", \.rawEnvironment),
        SettingDefinition(
            "app-apple-id", label: "App Apple ID", values: .appAppleID,
            help: "the app's Apple ID, carried by Production receipts and app transactions", key: "appAppleID",
            \.appAppleID),
        SettingDefinition(
            "server-url", label: "Server URL", values: .serverURL,
            help:
                "the local App Store Server's base URL; the certificates name SERVER-URL/ocsp as their OCSP responder",
            key: "serverURL", \.serverURL),
        SettingDefinition(
            "shared-secret", label: "Shared secret (verifyReceipt)", values: .secretOrOff,
            help: "the app's shared secret that storefront serve's verifyReceipt checks 'password' against",
            key: "sharedSecret", \.sharedSecret),
        SettingDefinition(
            "notification-url", label: "Notification URL", values: .notificationURL,
            help: "where App Store Server Notifications V2 are sent (storefront serve sends them); off sends none",
            key: "notificationURL", \.notificationURL),
        SettingDefinition(
            "notification-retries", label: "Notification retries", values: .notificationRetries,
            help: "production retries a failed notification 5 times (1, 12, 24, 48, 72 h on the store clock); "
                + "sandbox sends once; off holds them until 'store notifications resend UUID'",
            key: "notificationRetries", \.rawNotificationRetries),
        SettingDefinition(
            "notification-timeout", label: "Notification timeout (ms)",
            values: .milliseconds(in: 1...600_000, presets: [5000, 1000, 250, 30000]),
            help: "how long a notification's receiver has to answer before the attempt is TIMED_OUT",
            key: "notificationTimeoutMilliseconds", \.notificationTimeoutMilliseconds),
        SettingDefinition(
            "retention-review", label: "Retention review", values: .onOff,
            help: "retention images and messages wait in review (PENDING) for 'store approve-message ID' or "
                + "'reject-message ID' ('approve-image', 'reject-image'); off approves them at once",
            key: "retentionReview", \.retentionReview),
        SettingDefinition(
            "realtime-timeout", label: "Realtime timeout (ms)",
            values: .milliseconds(in: 1...600_000, presets: [defaultRealtimeTimeoutMilliseconds, 250, 2000, 5000]),
            help: "how long the Get Retention Message endpoint has to answer before the default message is shown",
            key: "realtimeTimeoutMilliseconds", \.realtimeTimeoutMilliseconds),
    ]

    /// The names `set(name:value:)` accepts, in display order.
    public static var names: [String] { registry.map(\.name) }

    /// The declaration of the setting `name`, if there is one.
    public static func definition(named name: String) -> SettingDefinition? {
        registry.first { $0.name == name }
    }

    /// Every setting with its value, in display order.
    public var entries: [StoreSetting] { Self.registry.map { $0.row(in: self) } }

    /// Changes the setting `name` to the value `value` names.
    ///
    /// - Parameters:
    ///   - name: one of `names`.
    ///   - value: as the setting's declaration accepts it, e.g. `on`, `250`, `network`.
    /// - Throws: `LocalAppStoreError.unknownSetting` or `.invalidSettingValue` naming what is accepted.
    public mutating func set(name: String, value: String) throws(LocalAppStoreError) {
        guard let setting = Self.definition(named: name) else { throw .unknownSetting(name: name, known: Self.names) }
        try setting.set(value, in: &self)
    }
}
