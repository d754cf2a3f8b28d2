/// The platform on which the customer first bought the app (Apple's `originalPlatform`).
public enum PurchasePlatform: String, Codable, Hashable, Sendable, CaseIterable {
    /// iOS, iPadOS, watchOS.
    case iOS
    /// macOS.
    case macOS
    /// tvOS.
    case tvOS
    /// visionOS.
    case visionOS
}
