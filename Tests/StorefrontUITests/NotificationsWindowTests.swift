import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The Notifications window (N, or the menu): its notifications with their type and subtype,
/// product, attempts, last result and next retry, a page at a time: the newest page on opening
/// and on every store change, the page before the oldest row shown when ↑ goes past it.
@Suite struct NotificationsWindowTests {
    static let rows = [
        NotificationRow(
            position: 0, uuid: "a", kind: "SUBSCRIBED/INITIAL_BUY",
            productID: "com.storefront.demo.premium.plus.monthly",
            attempts: 1, lastResult: "SUCCESS", nextAttempt: nil, delivered: true),
        NotificationRow(
            position: 1, uuid: "b", kind: "ONE_TIME_CHARGE", productID: "com.storefront.demo.coins.100", attempts: 2,
            lastResult: "TIMED_OUT", nextAttempt: Date(timeIntervalSince1970: 1_767_229_200), delivered: false),
    ]

    /// Delivered notifications at `positions`, as a page whose older ones are before `older`.
    static func page(_ positions: Range<Int>, older: Int?) -> NotificationPage {
        NotificationPage(
            rows: positions.map { p in
                NotificationRow(
                    position: p, uuid: "n\(p)", kind: "ONE_TIME_CHARGE", productID: "p\(p)", attempts: 1,
                    lastResult: "SUCCESS", nextAttempt: nil, delivered: true)
            }, older: older)
    }

    static func newest(_ page: NotificationPage) -> Action { .notifications(.loaded(before: nil, .success(page))) }

    static func selected(_ state: State) -> Int? {
        state.modal == .notifications ? state.notifications.selected : nil
    }

    @Test func nOpensItLoadsTheNewestPageAndShowsItWhole() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("N"))) == [.loadNotifications(before: nil)])
        #expect(state.modal == .notifications && state.notifications.selected == 0)
        #expect(render(state).lines.contains { $0.contains("No notifications yet") })
        send(&state, Self.newest(NotificationPage(rows: Self.rows, older: nil)))
        let lines = render(state).lines
        #expect(lines.contains { $0.contains("Server Notifications (2)") })
        #expect(lines.contains { $0.contains("↑↓ · Esc") }, "no older ones: nothing more to say")
        #expect(
            lines.contains {
                $0.contains("SUBSCRIBED/INITIAL_BUY") && $0.contains("SUCCESS") && $0.contains("delivered")
            })
        #expect(
            lines.contains { $0.contains("ONE_TIME_CHARGE") && $0.contains("com.store") && $0.contains("TIMED_OUT") },
            "at 80 columns the product is cut last")
        let wide = render(
            {
                var s = state
                s.width = 200
                s.height = 60
                return s
            }()
        ).lines
        #expect(
            wide.contains { $0.contains("ONE_TIME_CHARGE") && $0.contains("com.storefront.demo.coins.100") },
            "with room, the product shows whole")
        #expect(
            state.modal == .notifications && state.notifications.selected == 1,
            "the newest (last) row is selected, as in the event log")
        send(&state, .key(.down))
        #expect(state.modal == .notifications && state.notifications.selected == 1, "the selection stays on the rows")
        #expect(send(&state, .key(.up)) == [])
        #expect(state.modal == .notifications && state.notifications.selected == 0)
        #expect(send(&state, .key(.up)) == [], "the first notification ever is shown: nothing older to load")
        #expect(state.modal == .notifications && state.notifications.selected == 0)
        send(&state, .key(.escape))
        #expect(state.modal == nil)
    }

    @Test func upPastTheOldestRowShownLoadsThePageBeforeItOnce() {
        var state = Fixtures.loaded()
        state.height = 40
        send(&state, .key(.character("N")), Self.newest(Self.page(150..<200, older: 150)))
        #expect(state.notifications.rows.map(\.position) == Array(150..<200))
        #expect(Self.selected(state) == 49)
        var lines = render(state).lines
        #expect(lines.contains { $0.contains("Server Notifications (50 of 200)") })
        #expect(
            lines.contains { $0.contains("↑ at the top: older") }, "the footer names the key while older ones remain")
        #expect(send(&state, .key(.home)) == [])
        #expect(Self.selected(state) == 0)
        #expect(send(&state, .key(.up)) == [.loadNotifications(before: 150)])
        #expect(send(&state, .key(.up)) == [], "one load at a time")
        #expect(render(state).lines.contains { $0.contains("Loading…") })
        send(&state, .notifications(.loaded(before: 150, .success(Self.page(100..<150, older: 100)))))
        #expect(state.notifications.rows.map(\.position) == Array(100..<200))
        #expect(Self.selected(state) == 49, "the selection moved onto the row just above where it was")
        #expect(state.notifications.rows[49].position == 149)
        lines = render(state).lines
        #expect(lines.contains { $0.contains("Server Notifications (100 of 200)") })
        #expect(lines.contains { $0.contains("p149") })

        // A page that answers a cursor the window no longer has is dropped.
        send(&state, .notifications(.loaded(before: 150, .success(Self.page(100..<150, older: 100)))))
        #expect(state.notifications.rows.count == 100)

        // Down to the very first: the title counts them all and the key leaves the footer.
        send(&state, .key(.home))
        #expect(send(&state, .key(.pageUp)) == [.loadNotifications(before: 100)])
        send(&state, .notifications(.loaded(before: 100, .success(Self.page(50..<100, older: 50)))))
        send(&state, .key(.home))
        #expect(send(&state, .key(.character("k"))) == [.loadNotifications(before: 50)])
        send(&state, .notifications(.loaded(before: 50, .success(Self.page(0..<50, older: nil)))))
        #expect(state.notifications.rows.map(\.position) == Array(0..<200))
        #expect(state.notifications.older == nil)
        lines = render(state).lines
        #expect(lines.contains { $0.contains("Server Notifications (200)") })
        #expect(!lines.contains { $0.contains("↑ at the top: older") })
        send(&state, .key(.home))
        #expect(send(&state, .key(.up)) == [])
    }

    @Test func aFailedOlderPageSaysSoAndMayBeAskedAgain() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("N")), Self.newest(Self.page(150..<200, older: 150)), .key(.home))
        #expect(send(&state, .key(.up)) == [.loadNotifications(before: 150)])
        send(
            &state,
            .notifications(
                .loaded(
                    before: 150, .failure(.systemError("outbox.dat: the frame at byte 16 fails its check")))))
        #expect(state.notifications.loadingBefore == nil)
        #expect(state.notifications.rows.count == 50, "the rows shown stay")
        #expect(send(&state, .key(.up)) == [.loadNotifications(before: 150)])
    }

    @Test func itFollowsTheStoreWhileOpenWithTheNewestPage() {
        var state = Fixtures.loaded()
        #expect(send(&state, .storeChanged) == [.loadPurchases], "closed: nothing more to load")
        send(&state, .key(.character("N")), Self.newest(NotificationPage(rows: Self.rows, older: nil)))
        #expect(send(&state, .storeChanged) == [.loadPurchases, .loadNotifications(before: nil)])
        send(&state, Self.newest(NotificationPage(rows: [Self.rows[1]], older: 1)))
        #expect(state.notifications.rows == [Self.rows[0], Self.rows[1]], "the newest page joins the rows above it")
        #expect(state.modal == .notifications && state.notifications.selected == 1)
        #expect(render(state).lines.contains { $0.contains("Server Notifications (2)") })
    }

    @Test func aRefreshKeepsTheOlderPagesLoadedAndTheSelectionOnItsNotification() {
        var state = Fixtures.loaded()
        send(
            &state, .key(.character("N")), Self.newest(Self.page(150..<200, older: 150)), .key(.home), .key(.up),
            .notifications(.loaded(before: 150, .success(Self.page(100..<150, older: 100)))))
        send(&state, .key(.down), .key(.down))
        #expect(state.notifications.rows[Self.selected(state) ?? 0].position == 151)

        // Three more were made, and 160 was sent again: the newest page is 153..<203.
        var refreshed = Self.page(153..<203, older: 153)
        refreshed.rows[7].attempts = 2
        send(&state, Self.newest(refreshed))
        #expect(state.notifications.rows.map(\.position) == Array(100..<203), "still one list, older pages kept")
        #expect(state.notifications.older == 100)
        #expect(state.notifications.rows.first { $0.position == 160 }?.attempts == 2)
        #expect(
            state.notifications.rows[Self.selected(state) ?? 0].position == 151,
            "the selection stays on its notification")

        // With the newest row selected, the selection follows the newest.
        send(&state, .key(.end), Self.newest(Self.page(155..<205, older: 155)))
        #expect(state.notifications.rows[Self.selected(state) ?? 0].position == 204)

        // More than a page made since: the window starts again from the newest page.
        send(&state, Self.newest(Self.page(400..<450, older: 400)))
        #expect(state.notifications.rows.map(\.position) == Array(400..<450))
        #expect(state.notifications.older == 400)
        #expect(Self.selected(state) == 49)
    }

    @Test func aStoreChangeAlsoReloadsTheOlderRowsOnScreen() throws {
        // 24 rows: a 20-line window, its header, so 19 notifications show.
        var state = Fixtures.loaded(width: 80, height: 24)
        send(
            &state, .key(.character("N")), Self.newest(Self.page(150..<200, older: 150)), .key(.home), .key(.up),
            .notifications(.loaded(before: 150, .success(Self.page(100..<150, older: 100)))))
        #expect(Self.selected(state) == 49, "on 149, the newest of the older page")
        // 149 shown in the middle: 140 to 158, of which 140 to 149 lie above the newest page.
        #expect(
            send(&state, .storeChanged) == [
                .loadPurchases, .loadNotifications(before: nil), .loadNotifications(before: 150),
            ])

        // 145 was sent again meanwhile and gave up; the page also holds rows not on screen.
        var refreshed = Self.page(100..<150, older: 100)
        refreshed.rows[45].attempts = 6
        refreshed.rows[45].lastResult = "TIMED_OUT"
        refreshed.rows[45].delivered = false
        send(&state, .notifications(.loaded(before: 150, .success(refreshed))))
        #expect(state.notifications.rows.map(\.position) == Array(100..<200), "rows replaced in place, none added")
        #expect(state.notifications.older == 100)
        #expect(Self.selected(state) == 49)
        let row = try #require(render(state).lines.first { $0.contains("p145") })
        #expect(row.contains("6") && row.contains("TIMED_OUT") && row.contains("gave up"), "\(row)")

        // Back on the newest page, only the newest page is loaded again.
        send(&state, .key(.end))
        #expect(send(&state, .storeChanged) == [.loadPurchases, .loadNotifications(before: nil)])
    }

    @Test func reopeningKeepsOnlyTheNewestPageLoaded() {
        var state = Fixtures.loaded()
        send(
            &state, .key(.character("N")), Self.newest(Self.page(150..<200, older: 150)), .key(.home), .key(.up),
            .notifications(.loaded(before: 150, .success(Self.page(100..<150, older: 100)))), .key(.escape))
        #expect(send(&state, .key(.character("N"))) == [.loadNotifications(before: nil)])
        #expect(state.notifications.rows.map(\.position) == Array(150..<200))
        #expect(state.notifications.older == 150)
        #expect(Self.selected(state) == 49)
    }

    @Test func theMenuListsIt() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("m")))
        #expect(render(state).lines.contains { $0.contains("Server Notifications") })
    }
}
