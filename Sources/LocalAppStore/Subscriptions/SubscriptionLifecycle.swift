import Foundation
import StoreCore

/// One auto-renewable subscription's life in the local store, as a pure state machine:
/// given the time, it says which renewals fell due, when billing retry began and when the
/// subscription expired. The store persists the value and turns the events into transactions.
public struct SubscriptionLifecycle: Codable, Hashable, Sendable {
    /// What happened while time passed, in order.
    public enum Event: Hashable, Sendable {
        /// A new period began: a new transaction with the same original transaction ID;
        /// `webOrderLineItemID` is the period's number, `billing` how the period is paid for.
        case renewed(
            productID: String, start: Date, end: Date, webOrderLineItemID: Int, billing: PeriodBilling? = nil)
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
    /// How the current period is paid for (its plan, its place in a commitment); nil for a
    /// product the catalog gives no billing plans.
    public private(set) var billing: PeriodBilling?
    /// The plan the subscription renews into when the current period, or the current
    /// commitment, ends (the customer's choice in Manage Subscriptions).
    public var renewalBillingPlanType: BillingPlanType?
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

    /// Starts a subscription with its first period, renewing into the same product and plan.
    public init(
        originalTransactionID: String, groupID: String, productID: String, periodStart: Date, periodEnd: Date,
        webOrderLineItemID: Int, billing: PeriodBilling? = nil
    ) {
        self.billing = billing
        self.renewalBillingPlanType = billing?.planType
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
                    rate.billingRetryPeriod(for: billingPeriod(period) ?? Self.month))
                guard now >= retryEnd else { break }
                expire(at: retryEnd, intent: .billingError, into: &events)
                break
            }
            guard periodEnd <= now else { break }
            // Inside a commitment the next month is billed whatever the customer chose: turning
            // auto-renew off ends the subscription at the commitment's end, not the month's.
            if !isInCommitment {
                if !willAutoRenew {
                    expire(at: periodEnd, intent: .cancelled, into: &events)
                    break
                }
                if lacksPriceConsent {
                    expire(at: periodEnd, intent: .priceIncrease, into: &events)
                    break
                }
            }
            guard let next = nextPeriod(period) else {
                expire(at: periodEnd, intent: .productUnavailable, into: &events)
                break
            }
            if hasBillingIssue || billingFails {
                billingRetryStart = periodEnd
                graceEnd =
                    gracePeriodEnabled ? periodEnd.addingTimeInterval(rate.gracePeriod(for: next.period)) : nil
                events.append(.enteredBillingRetry(at: periodEnd, graceEnd: graceEnd))
                continue
            }
            renew(next, startingAt: periodEnd, rate: rate, into: &events)
        }
        return events
    }

    /// Starts the current period anew: the first period of a new purchase (after an offer it
    /// may be longer than one renewal period) or a resubscription, paid for as `billing` says
    /// (and renewing by the same plan).
    public mutating func restart(productID: String, start: Date, end: Date, billing: PeriodBilling? = nil) -> [Event] {
        self.productID = productID
        self.billing = billing
        renewalBillingPlanType = billing?.planType
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
        return [
            .renewed(
                productID: productID, start: start, end: end, webOrderLineItemID: webOrderLineItemID, billing: billing)
        ]
    }

    /// Moves the end of the current period to `date` (the store expired it early).
    public mutating func endPeriod(at date: Date) {
        if periodEnd > date { periodEnd = date }
    }

    /// Moves the end of the current period later, to `date` (a renewal-date extension through
    /// the App Store Server API); the renewal then happens at the new end.
    /// A commitment's end moves by as much: its remaining months follow.
    public mutating func extendPeriod(to date: Date) {
        guard periodEnd < date else { return }
        billing?.commitment?.expiresDate.addTimeInterval(date.timeIntervalSince(periodEnd))
        periodEnd = date
    }

    /// The billing issue is fixed: a subscription in billing retry renews at once, unless the
    /// customer cancelled meanwhile, which ends it now.
    public mutating func resolveBillingIssue(
        at now: Date, rate: StoreTimeRate, period: (String) -> SubscriptionPeriod?
    ) -> [Event] {
        hasBillingIssue = false
        guard billingRetryStart != nil, expiredAt == nil else { return [] }
        var events: [Event] = []
        let renews = willAutoRenew || isInCommitment
        guard renews, let next = nextPeriod(period) else {
            expire(at: now, intent: renews ? .productUnavailable : .cancelled, into: &events)
            return events
        }
        renew(next, startingAt: now, rate: rate, into: &events)
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

    /// Starts the next period now (a forced renewal): the commitment's next month while one
    /// runs, else the product and plan the customer renews into. Nil when that product is no
    /// longer sold (nothing changes).
    public mutating func renewNow(
        at now: Date, rate: StoreTimeRate, period: (String) -> SubscriptionPeriod?
    ) -> [Event]? {
        guard let next = nextPeriod(period) else { return nil }
        var events: [Event] = []
        renew(next, startingAt: now, rate: rate, into: &events)
        return events
    }

    /// Starts a new period at once with `productID` (an upgrade takes effect immediately),
    /// paid for by `plan` (a monthly plan starts a new commitment; nil for a product without plans).
    /// A commitment running ends with the period it was in.
    public mutating func switchNow(
        to productID: String, at now: Date, period: SubscriptionPeriod, rate: StoreTimeRate,
        plan: BillingPlanType? = nil
    ) -> [Event] {
        autoRenewProductID = productID
        renewalBillingPlanType = plan
        let billing = renewalBillingPlanType.map { PeriodBilling.first(of: $0, startingAt: now, rate: rate) }
        var events: [Event] = []
        renew(
            Renewal(productID: productID, period: billing?.billingPeriod(of: period) ?? period, billing: billing),
            startingAt: now, rate: rate, into: &events)
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
    ///
    /// Inside a commitment the next month renews whatever the customer chose, so it says the
    /// next billing period renews (same product, monthly) and `commitmentInfo` carries the
    /// customer's choice for the commitment's end (the renewal price is the store's to add).
    public func renewalInfo(at now: Date) -> RenewalInfo {
        let running = expiredAt == nil
        let inCommitment = isInCommitment
        var info = RenewalInfo(
            originalTransactionID: originalTransactionID, currentProductID: productID,
            autoRenewProductID: inCommitment ? productID : autoRenewProductID,
            willAutoRenew: running && (inCommitment || willAutoRenew),
            expirationIntent: expiration?.intent, isInBillingRetry: billingRetryStart != nil && running,
            gracePeriodExpiresDate: running ? graceEnd : nil,
            renewalDate: periodEnd,
            renewalBillingPlanType: inCommitment ? billing?.planType : renewalBillingPlanType)
        if let commitment = billing?.commitment, running {
            info.commitmentInfo = RenewalInfo.CommitmentInfo(
                willAutoRenew: willAutoRenew, autoRenewPreference: autoRenewProductID,
                renewalBillingPlanType: renewalBillingPlanType ?? .monthly, renewalDate: commitment.expiresDate)
        }
        return info
    }

    /// How long the current product's billing period is (one month in a commitment), nil when
    /// the product is no longer sold.
    public func billingPeriod(_ period: (String) -> SubscriptionPeriod?) -> SubscriptionPeriod? {
        period(productID).map { billing?.billingPeriod(of: $0) ?? $0 }
    }

    /// Whether the current period is a commitment's payment with more to come: the next
    /// month is billed whatever the customer chose.
    public var isInCommitment: Bool { billing?.commitment?.hasPaymentsLeft ?? false }

    /// What the next period is: the commitment's next month while one runs; else the product
    /// and plan the customer renews into (a monthly plan starting a new commitment).
    private struct Renewal {
        let productID: String
        let period: SubscriptionPeriod
        let billing: PeriodBilling?
    }

    /// The next period, nil when its product is no longer sold.
    private func nextPeriod(_ period: (String) -> SubscriptionPeriod?) -> Renewal? {
        if isInCommitment, var billing, var commitment = billing.commitment {
            guard period(productID) != nil else { return nil }
            commitment.billingPeriodNumber += 1
            billing.commitment = commitment
            return Renewal(productID: productID, period: PeriodBilling.month, billing: billing)
        }
        guard let productPeriod = period(autoRenewProductID) else { return nil }
        guard let plan = renewalBillingPlanType else {
            return Renewal(productID: autoRenewProductID, period: productPeriod, billing: nil)
        }
        // The commitment's end is set when the period starts (`renew`).
        let billing = PeriodBilling(
            planType: plan,
            commitment: plan.hasCommitment ? CommitmentProgress(billingPeriodNumber: 1, expiresDate: periodEnd) : nil)
        return Renewal(
            productID: autoRenewProductID, period: billing.billingPeriod(of: productPeriod), billing: billing)
    }

    private mutating func renew(
        _ next: Renewal, startingAt start: Date, rate: StoreTimeRate, into events: inout [Event]
    ) {
        productID = next.productID
        periodStart = start
        periodEnd = rate.end(of: next.period, startingAt: start)
        billing = next.billing
        if let commitment = billing?.commitment {
            billing?.commitment?.expiresDate = CommitmentProgress.end(
                afterPeriodEndingAt: periodEnd, number: commitment.billingPeriodNumber,
                total: commitment.totalBillingPeriods, rate: rate)
        }
        webOrderLineItemID += 1
        billingRetryStart = nil
        graceEnd = nil
        events.append(
            .renewed(
                productID: productID, start: start, end: periodEnd, webOrderLineItemID: webOrderLineItemID,
                billing: billing))
    }

    private mutating func expire(at date: Date, intent: RenewalInfo.ExpirationIntent, into events: inout [Event]) {
        expiration = (date, intent)
        graceEnd = nil
        events.append(.expired(at: date, intent: intent))
    }

    private static let month = SubscriptionPeriod(value: 1, unit: .month)
}
