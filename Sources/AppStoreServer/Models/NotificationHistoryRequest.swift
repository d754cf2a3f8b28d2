/// The body of Get Notification History, as Apple's `NotificationHistoryRequest`: a span of
/// dates (milliseconds, both required) and optional filters.
struct NotificationHistoryRequest: Decodable, Sendable {
    var startDate: Int64?
    var endDate: Int64?
    var notificationType: String?
    var notificationSubtype: String?
    var transactionId: String?
    var onlyFailures: Bool?
}
