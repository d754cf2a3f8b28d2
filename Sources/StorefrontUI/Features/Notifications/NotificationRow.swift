import Foundation

/// One App Store Server Notification as the Notifications window lists it (the executable
/// makes rows from the local store's outbox; the UI knows no server type).
public struct NotificationRow: Hashable, Sendable {
    /// Where it stands in the order the store made its notifications (0 for the first ever).
    public var position: Int
    /// The notification's UUID.
    public var uuid: String
    /// `TYPE` or `TYPE/SUBTYPE`, as Apple names them.
    public var kind: String
    /// The product it is about, if any.
    public var productID: String?
    /// Attempts made so far.
    public var attempts: Int
    /// The last attempt's `sendAttemptResult`, if any.
    public var lastResult: String?
    /// When the next attempt is due; nil once delivered or given up.
    public var nextAttempt: Date?
    /// Whether the receiver took it.
    public var delivered: Bool

    /// Creates a row.
    public init(
        position: Int, uuid: String, kind: String, productID: String?, attempts: Int, lastResult: String?,
        nextAttempt: Date?,
        delivered: Bool
    ) {
        self.position = position
        self.uuid = uuid
        self.kind = kind
        self.productID = productID
        self.attempts = attempts
        self.lastResult = lastResult
        self.nextAttempt = nextAttempt
        self.delivered = delivered
    }
}
