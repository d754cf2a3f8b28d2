import Foundation
internal import Receipts
import StoreCore

/// App Store Server Notifications V2 on the store's side, the notification outbox: each
/// notification is written in the journal with its event, by `NotificationRules`; this part
/// reads the outbox, resends and makes test notifications, and gives the server's sender
/// (`storefront serve`) what is due, the signed payload, and a place to record its attempts.
/// Reach it as `store.notifications`.
public struct ServerNotifications: Sendable {
    let store: LocalAppStore

    /// Every notification, oldest first, with its attempts. Reads and decodes every archived
    /// one, so it costs what the outbox ever held: only the crash checker (`crash-check`, which
    /// judges every notification after a crash) and tests read it. The CLI, the storefront's
    /// Notifications window and the server read pages (`page(newest:before:)`,
    /// `StoreSnapshot.notification(at:)`).
    /// - Throws: `.io` or `.corrupt` when the journal or the archive cannot be read.
    public func all() async throws(LocalAppStoreError) -> [StoredNotification] {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            return try store.checked(store.state.notifications.ordered)
        }
    }

    /// A page of the notifications, newest last: the `limit` newest made before position
    /// `before` (all of them when `nil`), each with its position.
    /// - Returns: the page, oldest first, and the position to pass as `before` for the page of
    ///   older ones (`nil` when there are none).
    /// - Throws: `.io` or `.corrupt` when the journal or the archive cannot be read.
    public func page(
        newest limit: Int, before: Int? = nil
    ) async throws(LocalAppStoreError) -> (page: [(position: Int, notification: StoredNotification)], older: Int?) {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            let outbox = store.state.notifications
            var position = min(before ?? outbox.count, outbox.count)
            var page: [(position: Int, notification: StoredNotification)] = []
            while position > 0, page.count < limit {
                position -= 1
                if let n = outbox.notification(at: position) { page.append((position, n)) }
            }
            return try store.checked((page.reversed(), position > 0 ? position : nil))
        }
    }

    /// Sends a notification again (`store notifications resend UUID`): an attempt is due now,
    /// delivered before or not; the UUID and payload stay.
    /// - Throws: `.unknownNotification`, or `.io`.
    @discardableResult
    public func resend(_ uuid: String) async throws(LocalAppStoreError) -> StoredNotification {
        try await store.perform { store throws(LocalAppStoreError) in
            let now = store.configuration.clock.now
            return try store.transactAndAnnounce { state throws(LocalAppStoreError) in
                guard var n = state.notifications.notification(uuid: uuid.lowercased()) else {
                    throw .unknownNotification(uuid)
                }
                n.nextAttemptDate = now
                n.resendRequested = true
                return ([JournalRecord.make(state.notifications.record(n))], n)
            }.result
        }
    }

    /// Makes a `TEST` notification (Request a Test Notification), due now.
    /// - Returns: its token, `UUID_MILLISECONDS` as Apple's.
    /// - Throws: `.io` when the journal cannot be written.
    public func requestTest() async throws(LocalAppStoreError) -> String {
        try await store.perform { store throws(LocalAppStoreError) in
            let now = store.configuration.clock.now
            return try store.transactAndAnnounce { _ throws(LocalAppStoreError) in
                var n = StoredNotification(type: .test, subtype: nil, now: now, accountID: nil, transaction: nil)
                let token = n.notificationUUID + "_" + String(now.appStoreMilliseconds)
                n.testNotificationToken = token
                return ([JournalRecord.make(NotificationRecord(notification: n))], token)
            }.result
        }
    }

    // MARK: - For the server's sender

    /// The notifications with an attempt due by `date` (the store clock's now by default), in
    /// the order they were made, and when the next later one falls due.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    package func due(
        by date: Date? = nil
    ) async throws(LocalAppStoreError) -> (
        due: [StoredNotification], next: Date?
    ) {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            let now = date ?? store.configuration.clock.now
            let pending = store.state.notifications.due
            let due = pending.filter { ($0.nextAttemptDate ?? .distantFuture) <= now }
            let next = pending.compactMap(\.nextAttemptDate).filter { $0 > now }.min()
            return (due, next)
        }
    }

    /// The notification's payload, signed now with the store's chain in the store's
    /// environment: `data` (app, bundle, environment, the signed transaction and renewal info as
    /// of the event, the status) or, for a mass extension, `summary`.
    /// - Throws: `CryptoError` when the chain cannot be used, or the file system's error.
    package func signedPayload(of notification: StoredNotification) async throws -> String {
        try await store.perform { store in try Self.signedPayload(of: notification, in: store) }
    }

    /// Records an attempt to send a notification and when the next is due (Apple's schedule
    /// under `notification-retries`, on the store clock at the time rate).
    /// - Parameters:
    ///   - uuid: the notification.
    ///   - attempt: when it was made and how it ended.
    ///   - signedPayload: what was sent; kept, so later attempts send the same.
    /// - Returns: the notification afterwards.
    /// - Throws: `.unknownNotification`, or `.io` when the journal cannot be written.
    @discardableResult
    package func recordAttempt(
        _ uuid: String, _ attempt: SendAttemptItem, signedPayload: String
    ) async throws(LocalAppStoreError) -> StoredNotification {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.transactAndAnnounce(sync: false) { state throws(LocalAppStoreError) in
                guard var n = state.notifications.notification(uuid: uuid) else { throw .unknownNotification(uuid) }
                n.sendAttempts.append(attempt)
                n.resendRequested = nil
                if n.signedPayload == nil { n.signedPayload = signedPayload }
                let settings = state.settings
                n.nextAttemptDate =
                    attempt.sendAttemptResult.isSuccess
                    ? nil
                    : settings.notificationRetries.nextAttempt(
                        after: n.sendAttempts.count, lastAttempt: attempt.attemptDate, rate: settings.storeTimeRate)
                return ([JournalRecord.make(state.notifications.record(n))], n)
            }.result
        }
    }

    /// `signedPayload(of:)` on the store's executor, under the journal's settings as last read.
    private static func signedPayload(
        of notification: StoredNotification, in store: isolated LocalAppStore
    ) throws -> String {
        let state = store.state
        let receipts = store.receipts
        let issuer = try receipts.issuer(for: state.settings)
        let now = store.configuration.clock.now
        let c = issuer.configuration
        var payload = ResponseBodyV2DecodedPayload()
        payload.notificationType = notification.notificationType
        payload.subtype = notification.subtype
        payload.notificationUUID = notification.notificationUUID
        payload.version = ResponseBodyV2DecodedPayload.currentVersion
        payload.signedDate = now
        if var summary = notification.summary {
            summary.rawEnvironment = c.environment.rawValue
            summary.appAppleId = c.appAppleIDInItems
            summary.bundleId = c.bundleID
            payload.summary = summary
        } else {
            var data = NotificationData()
            data.environment = c.environment
            data.appAppleId = c.appAppleIDInItems
            data.bundleId = c.bundleID
            data.bundleVersion = c.appVersion
            if let t = notification.transaction {
                data.signedTransactionInfo = try issuer.signedTransaction(t, now: now)
            }
            if let stored = notification.subscription {
                let info = stored.lifecycle.renewalInfo(at: notification.createdDate)
                let details = LocalReceiptIssuer.RenewalDetails(
                    info, of: stored, in: state, catalog: store.configuration.catalog,
                    priceIncrease: .some(notification.priceIncrease), fallbackStorefront: store.localizer.storefront)
                var renewal = issuer.renewalInfoPayload(info, details: details, now: now)
                renewal.rawPriceIncreaseStatus = notification.priceIncreaseStatus
                data.signedRenewalInfo = try issuer.jwsSigner().sign(renewal)
            }
            data.rawStatus = notification.status
            data.rawConsumptionRequestReason = notification.consumptionRequestReason
            payload.data = data
        }
        return try issuer.jwsSigner().signPayload(payload)
    }
}

extension LocalAppStore {
    /// The App Store Server Notifications outbox: the notifications made, resending, tests.
    public nonisolated var notifications: ServerNotifications { ServerNotifications(store: self) }
}
