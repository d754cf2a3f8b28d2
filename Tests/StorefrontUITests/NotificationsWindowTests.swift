import Foundation
import StoreCore
import Testing
@testable import StorefrontUI

/// The Notifications window (N, or the menu): every notification with its type and subtype,
/// product, attempts, last result and next retry, reloaded while open whenever the store moves.
@Suite struct NotificationsWindowTests {
    static let rows = [
        NotificationRow(uuid: "a", kind: "SUBSCRIBED/INITIAL_BUY", productID: "com.storefront.demo.premium.plus.monthly",
                        attempts: 1, lastResult: "SUCCESS", nextAttempt: nil, delivered: true),
        NotificationRow(uuid: "b", kind: "ONE_TIME_CHARGE", productID: "com.storefront.demo.coins.100", attempts: 2,
                        lastResult: "TIMED_OUT", nextAttempt: Date(timeIntervalSince1970: 1_767_229_200), delivered: false),
    ]

    @Test func nOpensItLoadsTheRowsAndShowsThemWhole() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("N"))) == [.loadNotifications])
        #expect(state.modal == .notifications(selected: 0))
        #expect(render(state).lines.contains { $0.contains("No notifications yet") })
        send(&state, .notificationsLoaded(.success(Self.rows)))
        let lines = render(state).lines
        #expect(lines.contains { $0.contains("Server Notifications (2)") })
        #expect(lines.contains { $0.contains("SUBSCRIBED/INITIAL_BUY") && $0.contains("SUCCESS") && $0.contains("delivered") })
        #expect(lines.contains { $0.contains("ONE_TIME_CHARGE") && $0.contains("com.store") && $0.contains("TIMED_OUT") },
                "at 80 columns the product is cut last")
        let wide = render({ var s = state; s.width = 200; s.height = 60; return s }()).lines
        #expect(wide.contains { $0.contains("ONE_TIME_CHARGE") && $0.contains("com.storefront.demo.coins.100") },
                "with room, the product shows whole")
        send(&state, .key(.down))
        #expect(state.modal == .notifications(selected: 1))
        send(&state, .key(.down))
        #expect(state.modal == .notifications(selected: 1), "the selection stays on the rows")
        send(&state, .key(.escape))
        #expect(state.modal == nil)
    }

    @Test func itFollowsTheStoreWhileOpen() {
        var state = Fixtures.loaded()
        #expect(send(&state, .storeChanged) == [.loadPurchases], "closed: nothing more to load")
        send(&state, .key(.character("N")), .notificationsLoaded(.success(Self.rows)))
        #expect(send(&state, .storeChanged) == [.loadPurchases, .loadNotifications])
        send(&state, .notificationsLoaded(.success([Self.rows[0]])))
        #expect(state.modal == .notifications(selected: 0))
        #expect(render(state).lines.contains { $0.contains("Server Notifications (1)") })
    }

    @Test func theMenuListsIt() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("m")))
        #expect(render(state).lines.contains { $0.contains("Server Notifications") })
    }
}
