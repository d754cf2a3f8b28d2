import Foundation

/// Everything retention messaging keeps (`retention/retention.json`, Docs/formats/retention.md):
/// images, messages, default messages, realtime URLs, performance tests and the log of
/// realtime exchanges. One versioned JSON document, replaced whole and atomically.
public struct RetentionState: Codable, Hashable, Sendable {
    /// The format name the file carries.
    public static let formatName = "storefront-retention-messaging"
    /// The version this code writes and the newest it reads.
    public static let currentVersion = 1
    /// How many realtime exchanges the log keeps (the newest).
    public static let logLimit = 500
    /// How many performance tests are kept (the newest).
    public static let performanceTestLimit = 20

    /// A default message: what the App Store shows for a product and locale when no realtime
    /// answer is usable.
    public struct DefaultMessage: Codable, Hashable, Sendable {
        /// The subscription's product.
        public let productID: String
        /// The locale, as Apple writes it (`en-US`).
        public let locale: String
        /// The message shown.
        public let messageIdentifier: UUID
    }

    /// The format name (always `formatName`).
    public var format = RetentionState.formatName
    /// The format version of the file.
    public var version = RetentionState.currentVersion
    /// Images by lowercase identifier.
    public var images: [String: RetentionImage] = [:]
    /// Messages by lowercase identifier.
    public var messages: [String: RetentionMessage] = [:]
    /// Default messages, in the order they were configured.
    public var defaults: [DefaultMessage] = []
    /// Realtime URLs by environment (`Sandbox`, `Production`).
    public var realtimeURLs: [String: String] = [:]
    /// Performance tests, oldest first.
    public var performanceTests: [PerformanceTestRun] = []
    /// Realtime exchanges, oldest first.
    public var exchanges: [RealtimeExchange] = []

    /// An empty state.
    public init() {}

    /// The key of an identifier in `images` and `messages`.
    static func key(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// The image with `id`, if any.
    public func image(_ id: UUID) -> RetentionImage? { images[Self.key(id)] }
    /// The message with `id`, if any.
    public func message(_ id: UUID) -> RetentionMessage? { messages[Self.key(id)] }
    /// The images, oldest upload first.
    public var imageList: [RetentionImage] {
        images.values.sorted { ($0.uploaded, Self.key($0.identifier)) < ($1.uploaded, Self.key($1.identifier)) }
    }
    /// The messages, oldest upload first.
    public var messageList: [RetentionMessage] {
        messages.values.sorted { ($0.uploaded, Self.key($0.identifier)) < ($1.uploaded, Self.key($1.identifier)) }
    }
    /// The default message of a product and locale, if one is configured.
    public func defaultMessage(productID: String, locale: String) -> DefaultMessage? {
        defaults.first { $0.productID == productID && $0.locale == locale }
    }
    /// The performance test with `id`, if kept.
    public func performanceTest(_ id: UUID) -> PerformanceTestRun? { performanceTests.first { $0.requestID == id } }

    /// Why `message` cannot be shown now (it or one of its images is not approved), or nil.
    public func unshowable(_ message: RetentionMessage) -> RetentionMessagingError? {
        guard message.isApproved else { return .messageNotApproved(message.identifier, state: message.rawState) }
        for id in message.content.imageIdentifiers {
            guard let image = image(id) else { return .imageNotFound(id) }
            guard image.isApproved else { return .imageNotApproved(id, state: image.rawState) }
        }
        return nil
    }
}
