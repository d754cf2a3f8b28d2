import Foundation
package import Receipts
import StoreCore

/// One App Store Server Notification as the store's journal keeps it (the outbox): what
/// happened, what it is about as of the event, every attempt to send it, and when the next
/// one is due. It is journaled in the same write as its event, and again after each attempt
/// (the last version wins), so its `notificationUUID` never changes.
public struct StoredNotification: Codable, Hashable, Sendable {
    /// The notification's identifier (lowercase UUID), the same on every attempt.
    public var notificationUUID: String
    /// The event.
    package var notificationType: NotificationTypeV2
    /// More about it, for some types.
    package var subtype: Subtype?
    /// When the event happened (store clock).
    public var createdDate: Date
    /// The account it is about (nil for a test or a mass extension's summary).
    public var accountID: String?
    /// The transaction it is about, as it was at the event.
    public var transaction: StoreCore.Transaction?
    /// The subscription it is about, as it was after the event.
    var subscription: StoredSubscription?
    /// The subscription's status after the event (Apple's `status`: 1 active, 2 expired,
    /// 3 billing retry, 4 grace period, 5 revoked).
    public var status: Int32?
    /// Why the customer asked for a refund (`CONSUMPTION_REQUEST`).
    public var consumptionRequestReason: String?
    /// A mass extension's outcome (`RENEWAL_EXTENSION`/`SUMMARY`).
    package var summary: Summary?
    /// The token `Request a Test Notification` answered with (`TEST` only).
    public var testNotificationToken: String?
    /// A price increase's consent status, which the renewal info carries (0 pending, 1 accepted).
    public var priceIncreaseStatus: Int32?
    /// The subscription's price increase as of the event (its renewal info's `renewalPrice`);
    /// absent in notifications journaled before increases had prices.
    var priceIncrease: PriceIncrease?
    /// Every attempt so far, oldest first.
    public var sendAttempts: [SendAttemptItem] = []
    /// When the next attempt is due (store clock); nil once delivered or given up.
    public var nextAttemptDate: Date?
    /// Whether `store notifications resend` asked for the next attempt (sent even while
    /// `notification-retries` is off).
    public var resendRequested: Bool?
    /// The payload as first signed for an attempt (later attempts send the same).
    public var signedPayload: String?
    /// What made it, so the same event is never notified twice (e.g. one grace period's end).
    var eventKey: String?

    /// Whether the receiver took it.
    public var isDelivered: Bool { sendAttempts.contains { $0.sendAttemptResult.isSuccess } }

    /// The product it is about, if any.
    public var productID: String? { transaction?.productID ?? summary?.productId }

    /// A new notification, due at once.
    init(
        type: NotificationTypeV2, subtype: Subtype?, now: Date, accountID: String?, transaction: StoreCore.Transaction?,
        subscription: StoredSubscription? = nil, uuid: UUID = UUID()
    ) {
        notificationUUID = uuid.uuidString.lowercased()
        notificationType = type
        self.subtype = subtype
        createdDate = now
        self.accountID = accountID
        var unsigned = transaction
        unsigned?.signedTransaction = nil
        self.transaction = unsigned
        self.subscription = subscription
        nextAttemptDate = now
    }
}
