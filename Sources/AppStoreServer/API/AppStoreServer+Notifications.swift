import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// Request a Test Notification, Get Test Notification Status and Get Notification History,
/// answered from the store's outbox (`StoredNotification`s and their attempts). An archived
/// notification that cannot be read fails the request with Apple's general internal error
/// (`AppStoreServer.answer`), never "not found" nor a page without it.
extension AppStoreServer {
    /// Apple's page of notification history.
    static let notificationPageSize = 20
    /// How far back Apple keeps notification history: 180 days.
    static let notificationHistoryDays: Double = 180

    func requestTestNotification(_ context: RequestContext) async throws -> HTTPResponse {
        guard context.snapshot.settings.notificationURL != nil else { throw APIError.serverNotificationURLNotFound }
        let token: String
        try context.checkReads()
        do {
            token = try await store.notifications.requestTest()
        } catch {
            throw APIError.generalInternal
        }
        notificationSender?.wake()
        return try json(SendTestNotificationResponse(testNotificationToken: token))
    }

    func testNotificationStatus(_ token: String, _ context: RequestContext) async throws -> HTTPResponse {
        guard token.count <= 100, token.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "-" || $0 == "_") }) else {
            throw APIError.invalidTestNotificationToken
        }
        guard let n = context.snapshot.testNotification(token: token) else { throw APIError.testNotificationNotFound }
        return try json(
            NotificationHistoryResponseItem(signedPayload: try await payload(of: n), sendAttempts: n.sendAttempts))
    }

    func notificationHistory(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let body: NotificationHistoryRequest = try Self.decode(
            request.body,
            fields: [
                "startDate": .invalidStartDate, "endDate": .invalidEndDate,
                "notificationType": .invalidNotificationType,
                "notificationSubtype": .invalidNotificationType, "transactionId": .invalidTransactionId,
                "onlyFailures": .generalBadRequest,
            ])
        // Dates compare in whole milliseconds, as the payloads show them (the store keeps finer times).
        guard let start = body.startDate, start >= 0 else { throw APIError.invalidStartDate }
        guard let end = body.endDate, end >= 0 else { throw APIError.invalidEndDate }
        guard start <= end else { throw APIError.startDateAfterEndDate }
        let earliest = context.snapshot.now.addingTimeInterval(-Self.notificationHistoryDays * 86_400)
        guard start >= earliest.appStoreMilliseconds else { throw APIError.startDateTooFarInPast }
        let type = body.notificationType.map(NotificationTypeV2.init(rawValue:))
        if let type, !NotificationTypeV2.allCases.contains(type) { throw APIError.invalidNotificationType }
        let subtype = body.notificationSubtype.map(Subtype.init(rawValue:))
        if let subtype, type == nil || !Subtype.allCases.contains(subtype) { throw APIError.invalidNotificationType }
        var account: String?
        if let id = body.transactionId {
            guard Self.isNumericID(id) else { throw APIError.invalidTransactionId }
            account = context.snapshot.accountID(ofTransaction: id) ?? ""
        }
        var first = 0
        if let text = try request.parameter("paginationToken", invalid: .invalidPaginationToken).first {
            guard let token = RevisionToken(text: text), token.ascending, token.position >= 0 else {
                throw APIError.invalidPaginationToken
            }
            first = token.position
        }
        let snapshot = context.snapshot
        var items: [NotificationHistoryResponseItem] = []
        var index = first
        var hasMore = false
        while index < snapshot.notificationCount {
            guard let n = snapshot.notification(at: index) else {
                // Unreadable (a damaged archive): the request fails, so stop walking.
                try context.checkReads()
                index += 1
                continue
            }
            let created = n.createdDate.appStoreMilliseconds
            let matches =
                !n.sendAttempts.isEmpty && created >= start && created <= end
                && (type == nil || n.notificationType == type) && (subtype == nil || n.subtype == subtype)
                && (account == nil || n.accountID == account) && (body.onlyFailures != true || !n.isDelivered)
            if matches {
                if items.count == Self.notificationPageSize {
                    hasMore = true
                    break
                }
                items.append(
                    NotificationHistoryResponseItem(
                        signedPayload: try await payload(of: n), sendAttempts: n.sendAttempts))
            }
            index += 1
        }
        let token = hasMore ? RevisionToken(position: index, ascending: true).text : nil
        return try json(
            NotificationHistoryResponse(paginationToken: token, hasMore: hasMore, notificationHistory: items))
    }

    /// What was sent, or (before the first attempt) the payload signed now.
    private func payload(of n: StoredNotification) async throws -> String {
        if let kept = n.signedPayload { return kept }
        do {
            return try await store.notifications.signedPayload(of: n)
        } catch {
            throw APIError.generalInternal
        }
    }
}
