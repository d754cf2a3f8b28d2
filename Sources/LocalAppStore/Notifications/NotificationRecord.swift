/// What the notification side adds to the store's journal (kind `notification`): a
/// notification (new, or after an attempt), a refund request, or a price increase. One member
/// is set per record; the last version of each (by UUID, transaction, subscription) wins.
struct NotificationRecord: Codable, Hashable, Sendable {
    var notification: StoredNotification?
    var refundRequest: RefundRequest?
    var priceIncrease: PriceIncrease?

    init(notification: StoredNotification) { self.notification = notification }
    init(refundRequest: RefundRequest) { self.refundRequest = refundRequest }
    init(priceIncrease: PriceIncrease) { self.priceIncrease = priceIncrease }
}
