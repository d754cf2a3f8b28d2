import Foundation

/// An App Store Server Notification V2 as signed (Apple's `responseBodyV2DecodedPayload`):
/// the type and subtype, a UUID that stays the same on every retry, the version `2.0`, the
/// signing date, and `data` or, for a mass extension, `summary`.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    /// The event.
    public var notificationType: NotificationTypeV2?
    /// More about the event, for some types.
    public var subtype: Subtype?
    /// The notification's identifier (lowercase), the same on every attempt.
    public var notificationUUID: String?
    /// The app and purchase it is about.
    public var data: NotificationData?
    /// Always `2.0`.
    public var version: String?
    /// When the App Store signed it.
    public var signedDate: Date?
    /// A mass extension's outcome (instead of `data`).
    public var summary: Summary?

    /// The version string of App Store Server Notifications V2.
    public static let currentVersion = "2.0"

    /// Creates an empty payload; set what applies.
    public init() {}
}
