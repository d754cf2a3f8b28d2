import Foundation
import StoreCore

/// One auto-renewable subscription's life in the local store, as a pure state machine:
/// given the time, it says which renewals fell due, when billing retry began and when the
/// subscription expired. The store persists the value and turns the events into transactions.
public struct SubscriptionLifecycle: Codable, Hashable, Sendable {
    /// What happened while time passed, in order.
    public enum Event: Hashable, Sendable {
        /// A new period began: a new transaction with the same original transaction ID;
        /// `webOrderLineItemID` is the period's number.
        case renewed(productID: String, start: Date, end: Date, webOrderLineItemID: Int)
        /// Billing failed at `at`; access continues until `graceEnd` when a grace period applies.
        case enteredBillingRetry(at: Date, graceEnd: Date?)
        /// The subscription ended.
        case expired(at: Date, intent: RenewalInfo.ExpirationIntent)
    }

    /// The original transaction of the subscription, kept across renewals and plan changes.
    public let originalTransactionID: String
    /// The subscription group.
    public let groupID: String
    /// The product of the current period.
    public private(set) var productID: String
    /// The product the next period will be (a downgrade or crossgrade waits for renewal).
    public var autoRenewProductID: String
    /// Off after the customer cancels: access continues to the end of the period.
    public var willAutoRenew: Bool
    /// When the current period began.
    public private(set) var periodStart: Date
    /// When the current period ends (renews or expires).
    public private(set) var periodEnd: Date
    /// The current period's number, counting every period of the subscription (the name is
    /// the journal's; the store derives each period's web order line item ID from the ID of
    /// the period's first transaction, `SubscriptionDesk.webOrderLineItemID(forPeriodOf:)`).
    public private(set) var webOrderLineItemID: Int
    /// Renewals fail while this is on (`store billing-issue ID on`, or the catalog's setting).
    public var hasBillingIssue: Bool
    /// When billing first failed, while the store retries.
    public private(set) var billingRetryStart: Date?
    /// When the billing grace period ends, when one applies.
    public private(set) var graceEnd: Date?
    /// When and why the subscription ended, once it did.
    public private(set) var expiration: (date: Date, intent: RenewalInfo.ExpirationIntent)? {
        get { expiredAt.map { ($0, RenewalInfo.ExpirationIntent(rawValue: expirationIntentRaw ?? 5)) } }
        set {
            expiredAt = newValue?.date
            expirationIntentRaw = newValue?.intent.rawValue
        }
    }
    private var expiredAt: Date?
    private var expirationIntentRaw: Int?

    /// Starts a subscription with its first period, renewing into the same product.
    public init(
        originalTransactionID: String, groupID: String, productID: String, periodStart: Date, periodEnd: Date,
        webOrderLineItemID: Int
    ) {
        self.originalTransactionID = originalTransactionID
        self.groupID = groupID
        self.productID = productID
        self.autoRenewProductID = productID
        self.willAutoRenew = true
        self.periodStart = periodStart
        self.periodEnd = periodEnd
        self.webOrderLineItemID = webOrderLineItemID
        self.hasBillingIssue = false
    }

    /// Whether the customer has access at `now` (in a paid period or in grace).
    public func isActive(at now: Date) -> Bool {
        guard expiredAt == nil else { return false }
        if now < periodEnd { return true }
        if let graceEnd, now < graceEnd { return true }
        return false
    }

    /// Whether the subscription has ended.
    public var isExpired: Bool { expiredAt != nil }

    /// Whether billing has failed and access continues in a grace period at `now` (after the
    /// grace period the store goes on retrying, without access).
    public func isInGracePeriod(at now: Date) -> Bool {
        guard expiredAt == nil, billingRetryStart != nil, let graceEnd else { return false }
        return now < graceEnd
    }

    /// Brings the subscription up to `now` and returns what happened, in order.
    /// - Parameters:
    ///   - rate: the store's time rate.
    ///   - gracePeriodEnabled: whether failed renewals get a grace period (catalog setting).
    ///   - period: each product's renewal period.
    ///   - billingFails: renewals fail as if `hasBillingIssue` were on (the store's setting).
    ///   - lacksPriceConsent: a price increase that needs the customer's consent was announced
    ///     and not consented to: the subscription does not renew but expires at its period's
    ///     end with `.priceIncrease`, as Apple's does.
    public mutating func advance(
        to now: Date, rate: StoreTimeRate, gracePeriodEnabled: Bool, billingFails: Bool = false,
        lacksPriceConsent: Bool = false, period: (String) -> SubscriptionPeriod?
    ) -> [Event] {
        var events: [Event] = []
        while expiredAt == nil {
            if let retryStart = billingRetryStart {
                let retryEnd = retryStart.addingTimeInterval(
                    rate.billingRetryPeriod(for: period(productID) ?? Self.month))
                guard now >= retryEnd else { break }
                expire(at: retryEnd, intent: .billingError, into: &events)
                break
            }
            guard periodEnd <= now else { break }
            if !willAutoRenew {
                expire(at: periodEnd, intent: .cancelled, into: &events)
                break
            }
            if lacksPriceConsent {
                expire(at: periodEnd, intent: .priceIncrease, into: &events)
                break
            }
            guard let next = period(autoRenewProductID) else {
                expire(at: periodEnd, intent: .productUnavailable, into: &events)
                break
            }
            if hasBillingIssue || billingFails {
                billingRetryStart = periodEnd
                graceEnd = gracePeriodEnabled ? periodEnd.addingTimeInterval(rate.gracePeriod(for: next)) : nil
                events.append(.enteredBillingRetry(at: periodEnd, graceEnd: graceEnd))
                continue
            }
            renew(startingAt: periodEnd, period: next, rate: rate, into: &events)
        }
        return events
    }

    /// Starts the current period anew: the first period of a new purchase (after an offer it
    /// may be longer than one renewal period) or a resubscription.
    public mutating func restart(productID: String, start: Date, end: Date) -> [Event] {
        self.productID = productID
        autoRenewProductID = productID
        willAutoRenew = true
        hasBillingIssue = false
        periodStart = start
        periodEnd = end
        webOrderLineItemID += 1
        billingRetryStart = nil
        graceEnd = nil
        expiredAt = nil
        expirationIntentRaw = nil
        return [.renewed(productID: productID, start: start, end: end, webOrderLineItemID: webOrderLineItemID)]
    }

    /// Moves the end of the current period to `date` (the store expired it early).
    public mutating func endPeriod(at date: Date) {
        if periodEnd > date { periodEnd = date }
    }

    /// Moves the end of the current period later, to `date` (a renewal-date extension through
    /// the App Store Server API); the renewal then happens at the new end.
    public mutating func extendPeriod(to date: Date) {
        if periodEnd < date { periodEnd = date }
    }

    /// The billing issue is fixed: a subscription in billing retry renews at once, unless the
    /// customer cancelled meanwhile, which ends it now.
    public mutating func resolveBillingIssue(
        at now: Date, rate: StoreTimeRate, period: (String) -> SubscriptionPeriod?
    ) -> [Event] {
        hasBillingIssue = false
        guard billingRetryStart != nil, expiredAt == nil else { return [] }
        var events: [Event] = []
        guard willAutoRenew, let next = period(autoRenewProductID) else {
            expire(at: now, intent: willAutoRenew ? .productUnavailable : .cancelled, into: &events)
            return events
        }
        renew(startingAt: now, period: next, rate: rate, into: &events)
        return events
    }

    /// A renewal attempted now fails (a forced renewal while billing fails): the current
    /// period ends now and billing retry begins, with a grace period when `gracePeriodEnabled`.
    /// Nothing happens to a subscription that has expired or is in billing retry already.
    public mutating func failRenewal(
        at now: Date, rate: StoreTimeRate, gracePeriodEnabled: Bool, period: (String) -> SubscriptionPeriod?
    ) -> [Event] {
        guard expiredAt == nil, billingRetryStart == nil else { return [] }
        if periodEnd > now { periodEnd = now }
        billingRetryStart = periodEnd
        let next = period(autoRenewProductID) ?? Self.month
        graceEnd = gracePeriodEnabled ? periodEnd.addingTimeInterval(rate.gracePeriod(for: next)) : nil
        return [.enteredBillingRetry(at: periodEnd, graceEnd: graceEnd)]
    }

    /// Starts a new period at once with `productID` (an upgrade takes effect immediately).
    public mutating func switchNow(
        to productID: String, at now: Date, period: SubscriptionPeriod, rate: StoreTimeRate
    ) -> [Event] {
        autoRenewProductID = productID
        var events: [Event] = []
        renew(startingAt: now, period: period, rate: rate, into: &events)
        return events
    }

    /// Undoes an expiry (a reversed refund): the current period runs again until `date`,
    /// renewing then as before (auto-renew as it was). Nothing happens to one that runs.
    public mutating func reinstate(until date: Date) {
        guard expiredAt != nil else { return }
        expiration = nil
        periodEnd = max(periodStart, date)
    }

    /// Ends the subscription now because its current period was refunded: access ends, while
    /// the period keeps its end (the refunded transaction's `expiresDate`, unchanged by a refund,
    /// which renewal info's `renewalDate` reports). Intent unknown, as Apple's.
    public mutating func revoke(at now: Date) -> [Event] {
        guard expiredAt == nil else { return [] }
        var events: [Event] = []
        expire(at: now, intent: .unknown, into: &events)
        return events
    }

    /// Ends the subscription and its current period now (`store expire ID`, a price increase
    /// without consent at a forced renewal).
    public mutating func expireNow(at now: Date, intent: RenewalInfo.ExpirationIntent) -> [Event] {
        guard expiredAt == nil else { return [] }
        var events: [Event] = []
        if periodEnd > now { periodEnd = now }
        expire(at: now, intent: intent, into: &events)
        return events
    }

    /// The renewal info the store reports for this subscription. Its `renewalDate` is always
    /// the latest period's end, as Apple's: the renewal date, or the date the period expired
    /// (auto-renew off, expired, refunded), which may be in the past.
    public func renewalInfo(at now: Date) -> RenewalInfo {
        RenewalInfo(
            originalTransactionID: originalTransactionID, currentProductID: productID,
            autoRenewProductID: autoRenewProductID, willAutoRenew: willAutoRenew && expiredAt == nil,
            expirationIntent: expiration?.intent, isInBillingRetry: billingRetryStart != nil && expiredAt == nil,
            gracePeriodExpiresDate: expiredAt == nil ? graceEnd : nil,
            renewalDate: periodEnd)
    }

    private mutating func renew(
        startingAt start: Date, period: SubscriptionPeriod, rate: StoreTimeRate, into events: inout [Event]
    ) {
        productID = autoRenewProductID
        periodStart = start
        periodEnd = rate.end(of: period, startingAt: start)
        webOrderLineItemID += 1
        billingRetryStart = nil
        graceEnd = nil
        events.append(
            .renewed(productID: productID, start: start, end: periodEnd, webOrderLineItemID: webOrderLineItemID))
    }

    private mutating func expire(at date: Date, intent: RenewalInfo.ExpirationIntent, into events: inout [Event]) {
        expiration = (date, intent)
        graceEnd = nil
        events.append(.expired(at: date, intent: intent))
    }

    private static let month = SubscriptionPeriod(value: 1, unit: .month)
}
