/// What the notification side adds to the store's journal (kind `notification`): a
/// notification (new, or after an attempt) or a price increase. One member is set per record;
/// the last version of each (by UUID, subscription) wins. Refund requests are `storekit`
/// records (`StoreKitRecord`), which the notification rules read too.
struct NotificationRecord: Codable, Hashable, Sendable {
    var notification: StoredNotification?
    var priceIncrease: PriceIncrease?

    init(notification: StoredNotification) { self.notification = notification }
    init(priceIncrease: PriceIncrease) { self.priceIncrease = priceIncrease }
}
