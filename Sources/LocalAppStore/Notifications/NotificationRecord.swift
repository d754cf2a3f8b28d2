/// What the notification side adds to the store's journal (kind `notification`): a
/// notification (new, or after an attempt) or a price increase. One member is set per record;
/// the last version of each (by UUID, subscription) wins. Refund requests are `storekit`
/// records (`StoreKitRecord`), which the notification rules read too.
struct NotificationRecord: Codable, Hashable, Sendable {
    var notification: StoredNotification?
    /// The notification's position (`ArchivedNotification.position`): absent on a new one (it
    /// takes the next) and in journals written before the archive; every later version carries it.
    var position: UInt64?
    var priceIncrease: PriceIncrease?

    init(notification: StoredNotification, position: UInt64? = nil) {
        self.notification = notification
        self.position = position
    }
    init(priceIncrease: PriceIncrease) { self.priceIncrease = priceIncrease }
}
