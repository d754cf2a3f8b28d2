import Foundation

/// The notifications in a snapshot of the store, for the server's history and test endpoints.
extension StoreSnapshot {
    /// How many notifications the store ever made: their positions are `0..<notificationCount`,
    /// in the order made.
    package var notificationCount: Int { state.notifications.count }

    /// The notification at `position` (one page of the archive read, at most).
    package func notification(at position: Int) -> StoredNotification? {
        state.notifications.notification(at: position)
    }

    /// The test notification a token names.
    package func testNotification(token: String) -> StoredNotification? {
        state.notifications.testNotification(token: token)
    }

    /// The account a transaction belongs to, when it is one of the store's.
    package func accountID(ofTransaction id: String) -> String? { state.entries[id]?.accountID }
}
