import StoreCore

/// The Notifications window over pages of the outbox: it opens on the newest page with the
/// newest row selected, loads the page before the oldest row shown when the selection is
/// moved up past it, and follows the store by loading the newest page again, and the rows on
/// screen when they lie above it, merged by position, so what it reads is a page or two
/// whatever the number of notifications.
extension State {
    /// Opens the window on the newest page: the newest rows loaded before stay on screen until
    /// it arrives, the older pages loaded then are let go (only rows on screen are refreshed,
    /// so rows kept from a past look would be stale).
    mutating func openNotifications() -> [Effect] {
        if notifications.count > NotificationPage.size {
            notifications.removeFirst(notifications.count - NotificationPage.size)
            olderNotifications = notifications.first.flatMap { $0.position > 0 ? $0.position : nil }
        }
        loadingNotificationsBefore = nil
        modal = .notifications(selected: max(0, notifications.count - 1))
        return [.loadNotifications(before: nil)]
    }

    /// What a store change loads while the window is open: the newest page, and, when rows on
    /// screen lie above it (an older notification can be sent again or give up), the pages that
    /// end with them, so nothing shown stays as it was when loaded.
    func followNotifications(selected: Int) -> [Effect] {
        let newestFirst = notifications.count - NotificationPage.size
        let shown = NotificationsView.shownRows(selected: selected, self)
        var effects: [Effect] = [.loadNotifications(before: nil)]
        var last = min(shown.upperBound, newestFirst) - 1
        while last >= shown.lowerBound {
            effects.append(.loadNotifications(before: notifications[last].position + 1))
            last -= NotificationPage.size
        }
        return effects
    }

    mutating func handleNotifications(_ key: Key, selected: Int) -> [Effect] {
        switch key {
        case .escape, .character("q"):
            modal = nil
        case .up, .character("k"), .pageUp, .control("b"), .home:
            if selected == 0, let older = olderNotifications {
                // Past the oldest row shown: the page before it (once, while it loads).
                guard loadingNotificationsBefore != older else { return [] }
                loadingNotificationsBefore = older
                return [.loadNotifications(before: older)]
            }
            fallthrough
        default:
            if let next = moved(selected, by: key, count: notifications.count, page: max(1, height - 8)) {
                modal = .notifications(selected: next)
            }
        }
        return []
    }

    /// A page arrived: the newest one replaces the rows from its first position on (the
    /// selection stays on its notification, or on the newest when it was there), the older one
    /// asked for goes above the rows (the selection moving onto its newest when it was at the
    /// top), any other replaces the rows it shares with those shown.
    mutating func apply(_ page: NotificationPage, before: Int?) {
        let selected: Int? = if case .notifications(let selected) = modal { selected } else { nil }
        let followsNewest = selected.map { $0 >= notifications.count - 1 } ?? true
        let selectedPosition = selected.flatMap {
            notifications.indices.contains($0) ? notifications[$0].position : nil
        }
        if let before {
            if loadingNotificationsBefore == before { loadingNotificationsBefore = nil }
            guard before == olderNotifications else {
                // A refresh of rows on screen (or an older page the newest one overtook): the
                // rows it holds replace theirs, in place, and nothing else changes.
                let fresh = Dictionary(page.rows.map { ($0.position, $0) }, uniquingKeysWith: { $1 })
                for i in notifications.indices {
                    if let row = fresh[notifications[i].position] { notifications[i] = row }
                }
                return
            }
            let above = page.rows.filter { $0.position < (notifications.first?.position ?? Int.max) }
            notifications = above + notifications
            olderNotifications = page.older
            if let selected {
                modal = .notifications(selected: selected == 0 ? max(0, above.count - 1) : selected + above.count)
            }
            return
        }
        let first = page.rows.first?.position ?? 0
        let kept = notifications.filter { $0.position < first }
        if let last = kept.last, last.position + 1 >= first, !page.rows.isEmpty {
            // The older pages loaded still join the new newest page: they stay.
            notifications = kept + page.rows
        } else {
            // More arrived than a page since the last look (or none are left): a gap would
            // follow the old rows, so the window starts again from the newest page.
            notifications = page.rows
            olderNotifications = page.older
            loadingNotificationsBefore = nil
        }
        guard selected != nil else { return }
        let index =
            followsNewest ? nil : selectedPosition.flatMap { p in notifications.firstIndex { $0.position == p } }
        modal = .notifications(selected: index ?? max(0, notifications.count - 1))
    }
}
