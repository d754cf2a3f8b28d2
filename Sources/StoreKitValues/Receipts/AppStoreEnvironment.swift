/// The server environment that made a signed transaction or renewal info (Apple's `environment`).
public enum AppStoreEnvironment: String, Codable, Hashable, Sendable, CaseIterable {
    /// The App Store.
    case production = "Production"
    /// The sandbox.
    case sandbox = "Sandbox"
    /// Xcode's StoreKit testing.
    case xcode = "Xcode"
    /// Local testing (this project's local App Store signs as such).
    case localTesting = "LocalTesting"
}
