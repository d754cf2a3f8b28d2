import Foundation
import Receipts

/// The settings that decide what the store signs as Apple signs: the environment, the app's
/// Apple ID, and the server whose `/ocsp` answers for the certificates.
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

    /// The names of these settings, in display order.
    static let signingNames = ["environment", "app-apple-id", "server-url"]

    /// The environment, when it is one this build knows (else Sandbox's rules apply).
    public var environment: AppStoreEnvironment { AppStoreEnvironment(rawValue: rawEnvironment) ?? Self.defaultEnvironment }

    /// The OCSP responder URL the certificates name: `serverURL` + `/ocsp`.
    public var ocspURL: String { serverURL + Self.ocspPath }

    /// The settings' rows.
    var signingEntries: [StoreSetting] {
        [
            StoreSetting(name: "environment", value: rawEnvironment,
                         description: "Sandbox|Production|Xcode|LocalTesting: the environment signed transactions, renewal info, app transactions and receipts name"),
            StoreSetting(name: "app-apple-id", value: String(appAppleID),
                         description: "the app's Apple ID (a positive number), carried by Production receipts and app transactions"),
            StoreSetting(name: "server-url", value: serverURL,
                         description: "the local App Store Server's base URL; the certificates name SERVER-URL/ocsp as their OCSP responder"),
        ]
    }

    /// Changes one of these settings from text.
    /// - Throws: `LocalAppStoreError.invalidSettingValue` naming what is accepted.
    mutating func setSigning(name: String, value: String) throws(LocalAppStoreError) {
        let text = value.trimmingCharacters(in: .whitespaces)
        switch name {
        case "environment":
            guard let environment = AppStoreEnvironment.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                throw .invalidSettingValue(name: name, value: value, accepted: "Sandbox, Production, Xcode, LocalTesting")
            }
            rawEnvironment = environment.rawValue
        case "app-apple-id":
            guard let id = Int64(text), id > 0 else {
                throw .invalidSettingValue(name: name, value: value, accepted: "a positive whole number, e.g. 1234567890")
            }
            appAppleID = id
        default:
            guard let url = Self.serverURL(parsing: text) else {
                throw .invalidSettingValue(
                    name: name, value: value, accepted: "an http or https base URL without a path, e.g. http://127.0.0.1:8490")
            }
            serverURL = url
        }
    }

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
