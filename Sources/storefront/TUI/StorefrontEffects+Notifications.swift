import Foundation
import LocalAppStore
import StoreCore
import StorefrontUI

/// The Notifications window's rows, made from the local store's outbox.
extension StorefrontEffects {
    func notificationRows() async -> Result<[NotificationRow], StoreError> {
        do {
            return .success(try await backend.notifications().map { n in
                NotificationRow(
                    uuid: n.notificationUUID, kind: StoreNotificationVerbs.kind(n), productID: n.productID,
                    attempts: n.sendAttempts.count, lastResult: n.sendAttempts.last?.sendAttemptResult.rawValue,
                    nextAttempt: n.nextAttemptDate, delivered: n.isDelivered)
            })
        } catch {
            return .failure(error.storeError)
        }
    }
}
