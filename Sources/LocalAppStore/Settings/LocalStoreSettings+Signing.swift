import Foundation
internal import Receipts
import StoreKitValues

/// The settings that decide what the store signs as Apple signs: the environment, the app's
/// Apple ID, and the server whose `/ocsp` answers for the certificates (declared in
/// `LocalStoreSettings.registry` as `environment`, `app-apple-id` and `server-url`).
extension LocalStoreSettings {
    /// Sandbox by default: Apple's libraries skip signature checks for Xcode and LocalTesting
    /// data, so a new store's signed items are really verified.
    public static let defaultEnvironment = AppStoreEnvironment.sandbox

    /// A ten-digit number shaped like the Apple IDs App Store Connect assigns, fixed so that
    /// documentation and a backend's configuration can name it before the store first runs. Only
    /// Production items carry it (Apple leaves it out in the sandbox and Xcode).
    public static let defaultAppAppleID: Int64 = 1_000_000_000

    /// Where `storefront serve` is expected to listen unless told otherwise; the certificates
    /// name `defaultServerURL/ocsp` as their OCSP responder.
    public static let defaultServerURL = "http://127.0.0.1:8490"

    /// The path under the server URL that answers OCSP.
    public static let ocspPath = "/ocsp"

    /// The environment, when it is one this build knows (else Sandbox's rules apply).
    public var environment: AppStoreEnvironment {
        AppStoreEnvironment(rawValue: rawEnvironment) ?? Self.defaultEnvironment
    }

    /// The OCSP responder URL the certificates name: `serverURL` + `/ocsp`.
    public var ocspURL: String { serverURL + Self.ocspPath }

    /// `http(s)://HOST[:PORT]` without a trailing slash, or nil when `text` is not such a URL.
    static func serverURL(parsing text: String) -> String? {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.path.isEmpty, components.query == nil, components.fragment == nil, components.user == nil,
            !trimmed.contains(where: { $0.isWhitespace || $0 == "," })
        else { return nil }
        return trimmed
    }
}

extension SettingValues where Value == String {
    /// An App Store environment in any letter case, kept as Apple writes it (`Sandbox`).
    public static var environment: SettingValues<String> {
        let names = ["Sandbox", "Production", "Xcode", "LocalTesting"]
        return SettingValues(
            synopsis: "ENVIRONMENT", accepted: names.joined(separator: ", "), choices: names,
            parse: { text in names.first { $0.lowercased() == text.lowercased() } }, format: { $0 })
    }

    /// An http or https base URL without a path (a trailing slash is dropped).
    public static var serverURL: SettingValues<String> {
        SettingValues(
            synopsis: "URL", accepted: "an http or https base URL without a path, e.g. http://127.0.0.1:8490",
            choices: [LocalStoreSettings.defaultServerURL],
            parse: { LocalStoreSettings.serverURL(parsing: $0) }, format: { $0 })
    }
}

extension SettingValues where Value == Int64 {
    /// An app's Apple ID: a positive whole number.
    public static var appAppleID: SettingValues<Int64> {
        SettingValues(
            synopsis: "NUMBER", accepted: "a positive whole number, e.g. 1234567890",
            choices: [String(LocalStoreSettings.defaultAppAppleID)],
            parse: { Int64($0).flatMap { $0 > 0 ? $0 : nil } }, format: { String($0) })
    }
}
