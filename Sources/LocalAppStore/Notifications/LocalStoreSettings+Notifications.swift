import Foundation

/// The settings of App Store Server Notifications V2 (declared in `LocalStoreSettings.registry`
/// as `notification-url`, `notification-retries` and `notification-timeout`).
extension LocalStoreSettings {
    /// How long a receiver has to answer by default: 5 seconds.
    public static let defaultNotificationTimeoutMilliseconds = 5000

    /// The retry policy, when it is one this build knows (else production's).
    public var notificationRetries: NotificationRetryPolicy {
        let policy = NotificationRetryPolicy(rawValue: rawNotificationRetries)
        return NotificationRetryPolicy.allCases.contains(policy) ? policy : .production
    }

    /// The receiver's time to answer, as a duration.
    public var notificationTimeout: Duration { .milliseconds(notificationTimeoutMilliseconds) }

    /// An http or https URL with a host (any path and query), or nil when `text` is not one.
    static func notificationURL(parsing text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty, components.user == nil,
            components.fragment == nil, !text.contains(where: { $0.isWhitespace }),
            // `http://host:/` has an empty port, which URLComponents lets through.
            components.port != nil || !text.contains(host + ":")
        else { return nil }
        return text
    }
}

extension SettingValues where Value == String? {
    /// `off`, or an http or https URL to POST notifications to.
    public static var notificationURL: SettingValues<String?> {
        textOrOff(
            synopsis: "URL|off", accepted: "off or an http or https URL, e.g. http://127.0.0.1:9000/notifications",
            parse: LocalStoreSettings.notificationURL(parsing:))
    }
}

extension SettingValues where Value == String {
    /// `production`, `sandbox` or `off` (see `NotificationRetryPolicy`).
    public static var notificationRetries: SettingValues<String> {
        let names = NotificationRetryPolicy.allCases.map(\.rawValue)
        return SettingValues(
            synopsis: "POLICY", accepted: names.joined(separator: ", "), choices: names,
            parse: { text in names.first { $0 == text.lowercased() } }, format: { $0 })
    }
}
