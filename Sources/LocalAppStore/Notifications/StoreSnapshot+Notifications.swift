import Foundation

/// The notifications in a snapshot of the store, for the server's history and test endpoints.
extension StoreSnapshot {
    /// Every notification, oldest first.
    public var notifications: [StoredNotification] { state.notifications.ordered }

    /// The test notification a token names.
    public func testNotification(token: String) -> StoredNotification? {
        state.notifications.testTokens[token].flatMap { state.notifications.notifications[$0] }
    }

    /// The account a transaction belongs to, when it is one of the store's.
    public func accountID(ofTransaction id: String) -> String? { state.entries[id]?.accountID }
}
