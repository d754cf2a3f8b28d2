/// One page of the store's App Store Server Notifications, as the Notifications window loads
/// them (`Effect.loadNotifications`): never the whole outbox, which grows with every
/// notification the store ever made.
public struct NotificationPage: Hashable, Sendable {
    /// How many notifications a page holds.
    public static let size = 50

    /// The page's notifications, oldest first.
    public var rows: [NotificationRow]
    /// The position to load the page of older ones before; nil when there are none.
    public var older: Int?

    /// Creates a page.
    public init(rows: [NotificationRow], older: Int?) {
        self.rows = rows
        self.older = older
    }
}
