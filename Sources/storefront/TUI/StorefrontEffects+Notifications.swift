import Foundation
import LocalAppStore
import StoreCore
import StorefrontUI

/// The Notifications window's rows, a page of the local store's outbox at a time.
extension StorefrontEffects {
    /// The newest `NotificationPage.size` notifications made before position `before` (the
    /// newest of all when nil): what opening the window or a refresh reads, whatever the
    /// outbox's length.
    func notificationPage(before: Int?) async -> Result<NotificationPage, StoreError> {
        do {
            let (page, older) = try await backend.notifications(newest: NotificationPage.size, before: before)
            return .success(
                NotificationPage(
                    rows: page.map { position, n in
                        NotificationRow(
                            position: position, uuid: n.notificationUUID, kind: StoreNotificationVerbs.kind(n),
                            productID: n.productID,
                            attempts: n.sendAttempts.count, lastResult: n.sendAttempts.last?.sendAttemptResult.rawValue,
                            nextAttempt: n.nextAttemptDate, delivered: n.isDelivered)
                    }, older: older))
        } catch {
            return .failure(error.storeError)
        }
    }
}
