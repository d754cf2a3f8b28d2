import LocalAppStore
import Receipts

/// What the server says about the app in every answer: the environment and the app's Apple ID.
///
/// Until the store has `environment` and `app-apple-id` settings (helper "signing"), these are
/// the defaults: Sandbox (so backends really verify) and a fixed Apple ID. Point
/// `environment(settings:)` and `appAppleID(settings:)` at the settings when they exist.
public enum ServerIdentity {
    /// The Apple ID reported until the store has an `app-apple-id` setting.
    public static let defaultAppAppleID: Int64 = 1_234_567_890

    /// The environment the store signs and answers in.
    public static func environment(settings: LocalStoreSettings) -> AppStoreEnvironment { .sandbox }

    /// The app's Apple ID.
    public static func appAppleID(settings: LocalStoreSettings) -> Int64 { defaultAppAppleID }
}
