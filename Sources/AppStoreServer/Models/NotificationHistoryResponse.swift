import LocalAppStore

/// Get Notification History's answer, as Apple's `NotificationHistoryResponse`.
struct NotificationHistoryResponse: Encodable, Sendable {
    /// Where the next page starts (only when `hasMore`).
    var paginationToken: String?
    var hasMore: Bool
    var notificationHistory: [NotificationHistoryResponseItem]
}

/// One notification in a history or a test's status, as Apple's `NotificationHistoryResponseItem`
/// (and `CheckTestNotificationResponse`): the payload sent and every attempt.
struct NotificationHistoryResponseItem: Encodable, Sendable {
    var signedPayload: String?
    var sendAttempts: [SendAttemptItem]
}

/// Request a Test Notification's answer, as Apple's `SendTestNotificationResponse`.
struct SendTestNotificationResponse: Encodable, Sendable {
    var testNotificationToken: String
}
