import StoreKitValues

extension NotificationsFeature {
    /// What happens to the Notifications window.
    public enum Action: Hashable, Sendable {
        /// The menu's item (or `N`): open on the newest page.
        case open
        /// A key in the window.
        case key(Key)
        /// The store changed while the window is open: load what it shows again.
        case follow
        /// A page of notifications, the one `.loadNotifications(before:)` asked for.
        case loaded(before: Int?, Result<NotificationPage, StoreError>)
    }
}
