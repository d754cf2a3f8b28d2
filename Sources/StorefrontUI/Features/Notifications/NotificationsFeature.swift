import StoreKitValues

/// The Notifications window over pages of the outbox: it opens on the newest page with the
/// newest row selected, loads the page before the oldest row shown when the selection is
/// moved up past it, and follows the store by loading the newest page again, and the rows on
/// screen when they lie above it, merged by position, so what it reads is a page or two
/// whatever the number of notifications.
public enum NotificationsFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .open:
            // The newest rows loaded before stay on screen until the newest page arrives; the
            // older pages loaded then are let go (only rows on screen are refreshed, so rows
            // kept from a past look would be stale).
            if state.rows.count > NotificationPage.size {
                state.rows.removeFirst(state.rows.count - NotificationPage.size)
                state.older = state.rows.first.flatMap { $0.position > 0 ? $0.position : nil }
            }
            state.loadingBefore = nil
            state.selected = max(0, state.rows.count - 1)
            return .present(.notifications, loading: .loadNotifications(before: nil))
        case .key(let key):
            return handle(key, &state, root)
        case .follow:
            return follow(state, root)
        case .loaded(let before, .success(let page)):
            state.apply(page, before: before, isOpen: root.modal == .notifications)
        case .loaded(let before, .failure(let error)):
            if before != nil, state.loadingBefore == before { state.loadingBefore = nil }
            return Reaction(requests: [.fail(error)])
        }
        return .none
    }

    /// What a store change loads while the window is open: the newest page, and, when rows on
    /// screen lie above it (an older notification can be sent again or give up), the pages that
    /// end with them, so nothing shown stays as it was when loaded.
    private static func follow(_ state: State, _ root: StorefrontUI.State) -> Reaction {
        let newestFirst = state.rows.count - NotificationPage.size
        let shown = NotificationsView.shownRows(state, root)
        var reaction = Reaction.run(.loadNotifications(before: nil))
        var last = min(shown.upperBound, newestFirst) - 1
        while last >= shown.lowerBound {
            reaction.run(.loadNotifications(before: state.rows[last].position + 1))
            last -= NotificationPage.size
        }
        return reaction
    }

    private static func handle(_ key: Key, _ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        switch key {
        case .escape, .character("q"):
            return .present(nil)
        case .up, .character("k"), .pageUp, .control("b"), .home:
            if state.selected == 0, let older = state.older {
                // Past the oldest row shown: the page before it (once, while it loads).
                guard state.loadingBefore != older else { return .none }
                state.loadingBefore = older
                return .run(.loadNotifications(before: older))
            }
            fallthrough
        default:
            let page = max(1, root.height - 8)
            if let next = KeyNavigation.moved(state.selected, by: key, count: state.rows.count, page: page) {
                state.selected = next
            }
        }
        return .none
    }
}

extension NotificationsFeature.State {
    /// A page arrived: the newest one replaces the rows from its first position on (the
    /// selection stays on its notification, or on the newest when it was there), the older one
    /// asked for goes above the rows (the selection moving onto its newest when it was at the
    /// top), any other replaces the rows it shares with those shown. The selection moves only
    /// while the window is open.
    mutating func apply(_ page: NotificationPage, before: Int?, isOpen: Bool) {
        let followsNewest = !isOpen || selected >= rows.count - 1
        let selectedPosition = rows.indices.contains(selected) ? rows[selected].position : nil
        if let before {
            if loadingBefore == before { loadingBefore = nil }
            guard before == older else {
                // A refresh of rows on screen (or an older page the newest one overtook): the
                // rows it holds replace theirs, in place, and nothing else changes.
                let fresh = Dictionary(page.rows.map { ($0.position, $0) }, uniquingKeysWith: { $1 })
                for i in rows.indices {
                    if let row = fresh[rows[i].position] { rows[i] = row }
                }
                return
            }
            let above = page.rows.filter { $0.position < (rows.first?.position ?? Int.max) }
            rows = above + rows
            older = page.older
            if isOpen { selected = selected == 0 ? max(0, above.count - 1) : selected + above.count }
            return
        }
        let first = page.rows.first?.position ?? 0
        let kept = rows.filter { $0.position < first }
        if let last = kept.last, last.position + 1 >= first, !page.rows.isEmpty {
            // The older pages loaded still join the new newest page: they stay.
            rows = kept + page.rows
        } else {
            // More arrived than a page since the last look (or none are left): a gap would
            // follow the old rows, so the window starts again from the newest page.
            rows = page.rows
            older = page.older
            loadingBefore = nil
        }
        guard isOpen else { return }
        let index = followsNewest ? nil : selectedPosition.flatMap { p in rows.firstIndex { $0.position == p } }
        selected = index ?? max(0, rows.count - 1)
    }
}
