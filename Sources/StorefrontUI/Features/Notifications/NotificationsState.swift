import StoreKitValues

extension NotificationsFeature {
    /// The notifications loaded and the window's selection.
    public struct State: ScreenState {
        /// The store's App Store Server Notifications loaded, oldest first: the newest page,
        /// and each older page the window was moved up into.
        public var rows: [NotificationRow] = []
        /// The position before which older notifications are still to load (the oldest loaded
        /// page's `NotificationPage.older`); nil when `rows` begins with the first one.
        public var older: Int?
        /// The `before` of the older page being loaded, if one is (one at a time).
        public var loadingBefore: Int?
        /// The selected row.
        public var selected = 0

        /// Nothing loaded yet.
        public init() {}
    }
}
