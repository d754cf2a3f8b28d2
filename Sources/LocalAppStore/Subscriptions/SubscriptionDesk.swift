import Foundation
import StoreCore

/// How the local store sells and runs auto-renewable subscriptions, as journal records.
///
/// One subscription per account and group: a new purchase in a group continues it (its
/// original transaction ID stays), an upgrade takes effect at once, a downgrade at the next
/// renewal, a crossgrade at once when the period is the same and at renewal otherwise. The
/// introductory offer is for accounts that never subscribed in the group; promotional offers
/// for those who did.
struct SubscriptionDesk {
    let catalog: StoreKitConfiguration
    let settings: LocalStoreSettings
    let now: Date
    /// The storefront of a purchase that names none (the store's current one).
    let currentStorefront: Storefront

    var rate: StoreTimeRate { settings.storeTimeRate }

    /// What the catalog's billing plans sell.
    var plans: BillingPlans { BillingPlans(catalog: catalog) }

    /// The storefront named by `code` (a transaction's), else the current one.
    func storefront(_ code: String?) -> Storefront {
        code.flatMap(Storefront.named) ?? currentStorefront
    }

    /// The renewal period of a product, by ID.
    func period(of productID: String) -> StoreCore.SubscriptionPeriod? {
        catalog.product(id: productID)?.subscription?.period
    }

    // MARK: - Buying

    /// Completes a charged-for purchase of an auto-renewable subscription in `entry`: sets its
    /// original ID, period and offer, and returns the records to journal besides the entry.
    /// - Returns: whether the account is charged, and the extra records.
    func purchase(_ entry: inout QueueEntry, state: JournalState) -> (charged: Bool, records: [JournalRecord]) {
        let productID = entry.transaction.productID
        guard let product = catalog.product(id: productID), let info = product.subscription,
            let period = period(of: productID)
        else { return (true, []) }
        let existing = state.subscription(accountID: entry.accountID, groupID: info.groupID)
        entry.transaction.subscriptionGroupID = info.groupID
        // The billing plan chosen (checked when queued; the catalog may have changed since).
        let plan: StoreKitConfiguration.BillingPlan?
        do throws(StoreError) {
            plan = try plans.plan(for: entry.transaction.payment, of: product)
        } catch {
            fail(&entry, error)
            return (false, [])
        }
        entry.transaction.billingPlanType = plan?.type
        if let plan {
            let price = plans.price(of: plan, for: product, in: storefront(entry.transaction.storefront))
            entry.transaction.price = price.amount
            entry.transaction.currencyCode = price.currencyCode
        }

        // A promotional offer must be the product's, and is for current or lapsed subscribers;
        // code and win-back offers were checked when the payment was queued.
        var offer: StoreKitConfiguration.SubscriptionOffer?
        if let kind = entry.transaction.offerType, kind == .code || kind == .winBack, let id = entry.transaction.offerID
        {
            offer = info.offer(id: id, kind: kind)
        } else if let offerID = entry.transaction.payment.offerID {
            guard let promotional = info.promotionalOffers.offer(named: offerID) else {
                fail(&entry, .invalidOfferIdentifier("\(productID) has no promotional offer \(offerID)"))
                return (false, [])
            }
            guard existing != nil else {
                fail(
                    &entry,
                    .ineligibleForOffer(
                        "the promotional offer \(offerID) is for current or lapsed subscribers of \(info.groupName)"))
                return (false, [])
            }
            offer = promotional
        }

        // In billing retry, buying again pays for a new period at once (as updating the
        // payment method would); otherwise a current subscriber changes the subscription.
        if var current = existing, isActive(current.lifecycle), current.lifecycle.billingRetryStart == nil {
            return change(
                &entry, to: product, info: info, period: period, offer: offer, plan: plan?.type, current: &current,
                state: state)
        }

        // A new subscriber, or a lapsed one coming back.
        if let offer {
            if entry.transaction.offerType != .code && entry.transaction.offerType != .winBack {
                entry.transaction.offerType = .promotional
            }
            entry.transaction.offerID = offer.transactionOfferID(as: entry.transaction.offerType ?? .promotional)
        } else if existing == nil, let intro = plans.introductoryOffer(of: product, for: plan?.type) {
            offer = intro
            entry.transaction.offerType = .introductory
        }
        // A monthly plan bills a month at a time; an offer stands for the first billing period(s).
        var billing = plan.map { PeriodBilling.first(of: $0.type, startingAt: now, rate: rate) }
        var end = rate.end(of: billing?.billingPeriod(of: period) ?? period, startingAt: now)
        var discountedRenewals = 0
        if let offer {
            let offerPeriod = offer.period
            switch offer.paymentMode {
            case .payAsYouGo:
                end = rate.end(of: offerPeriod, startingAt: now)
                discountedRenewals = max(offer.numberOfPeriods - 1, 0)
            default:
                end = now
                for _ in 0..<max(offer.numberOfPeriods, 1) { end = rate.end(of: offerPeriod, startingAt: end) }
            }
            let price = catalog.price(of: offer, for: product, in: storefront(entry.transaction.storefront))
            entry.transaction.price = price.amount
            entry.transaction.currencyCode = price.currencyCode
        }
        if let commitment = billing?.commitment {
            billing?.commitment?.expiresDate = CommitmentProgress.end(
                afterPeriodEndingAt: end, number: commitment.billingPeriodNumber,
                total: commitment.totalBillingPeriods, rate: rate)
        }
        let originalID = existing?.lifecycle.originalTransactionID ?? entry.id
        var lifecycle =
            existing?.lifecycle
            ?? SubscriptionLifecycle(
                originalTransactionID: originalID, groupID: info.groupID, productID: productID,
                periodStart: now, periodEnd: end, webOrderLineItemID: 0)
        _ = lifecycle.restart(productID: productID, start: now, end: end, billing: billing)
        let first = existing.flatMap { state.entries[$0.lifecycle.originalTransactionID] }
        entry.transaction = transaction(
            entry.transaction, originalID: originalID, originalPurchaseDate: first?.transaction.purchaseDate ?? now,
            start: now, end: end, billing: billing, product: product)
        let stored = StoredSubscription(
            accountID: entry.accountID, lifecycle: lifecycle, discountedRenewalsLeft: discountedRenewals,
            discountOfferID: entry.transaction.offerType == .introductory ? nil : entry.transaction.offerID,
            latestTransactionID: entry.id)
        return (true, [JournalRecord.make(stored)])
    }

    /// A purchase in a group the account is subscribed in right now. A promotional offer
    /// prices the periods it covers: from now on an upgrade, from the next renewal otherwise
    /// (each covered period at the offer's price; a pay-up-front offer charges its price once).
    private func change(
        _ entry: inout QueueEntry, to product: StoreKitConfiguration.Product,
        info: StoreKitConfiguration.SubscriptionInfo,
        period: StoreCore.SubscriptionPeriod, offer: StoreKitConfiguration.SubscriptionOffer?,
        plan: BillingPlanType?, current: inout StoredSubscription,
        state: JournalState
    ) -> (charged: Bool, records: [JournalRecord]) {
        let productID = product.id
        let currentProductID = current.lifecycle.productID
        let currentLevel = catalog.product(id: currentProductID)?.subscription?.groupNumber ?? info.groupNumber
        let currentPeriod = self.period(of: currentProductID)
        let original = state.entries[current.lifecycle.originalTransactionID]
        let latest = state.entries[current.latestTransactionID]
        // Inside a 12-month commitment only an upgrade takes effect at once; a crossgrade or a
        // downgrade waits for the commitment's end, as a change of plan does.
        let immediate =
            productID != currentProductID
            && (info.groupNumber < currentLevel
                || (info.groupNumber == currentLevel && currentPeriod == period
                    && !current.lifecycle.isInCommitment))
        var records: [JournalRecord] = []

        if immediate {
            // Upgrade (or a crossgrade to the same period): a new period starts now.
            _ = current.lifecycle.switchNow(to: productID, at: now, period: period, rate: rate, plan: plan)
            current.lifecycle.willAutoRenew = true
            // Every transaction of the replaced period (a downgrade's answer shares it) is
            // upgraded, and back in the queue so the app learns of it (now or at its next start).
            for var replaced in latest.map(state.sameGrant(as:)) ?? [] {
                replaced.transaction.isUpgraded = true
                replaced.finished = false
                records.append(JournalRecord.make(replaced))
            }
            current.latestTransactionID = entry.id
            current.discountedRenewalsLeft = 0
            current.discountOfferID = nil
            if let offer {
                let price = catalog.price(of: offer, for: product, in: storefront(entry.transaction.storefront))
                entry.transaction.price = price.amount
                entry.transaction.currencyCode = price.currencyCode
                if entry.transaction.offerType != .code { entry.transaction.offerType = .promotional }
                entry.transaction.offerID = offer.transactionOfferID(as: entry.transaction.offerType ?? .promotional)
                current.discountedRenewalsLeft = max(offer.numberOfPeriods - 1, 0)
                current.discountOfferID = entry.transaction.offerID
            }
            entry.transaction = transaction(
                entry.transaction, originalID: current.lifecycle.originalTransactionID,
                originalPurchaseDate: original?.transaction.purchaseDate ?? now, start: now,
                end: current.lifecycle.periodEnd, billing: current.lifecycle.billing, product: product)
            records.append(JournalRecord.make(current))
            return (true, records)
        }

        // The same product (auto-renew back on), a downgrade or a crossgrade to another
        // period: nothing changes until the next renewal, and nothing is charged now. The
        // purchase answers with the current period, and its transaction stands for that period
        // from now on (a refund of it ends the subscription, as for any current period).
        current.lifecycle.autoRenewProductID = productID
        current.lifecycle.willAutoRenew = true
        current.lifecycle.renewalBillingPlanType = plan
        if let offer {
            current.discountedRenewalsLeft = max(offer.numberOfPeriods, 1)
            current.discountOfferID = offer.transactionOfferID(as: entry.transaction.offerType ?? .promotional)
        }
        let period = latest?.transaction
        entry.transaction = StoreCore.Transaction(
            transactionID: entry.id, originalTransactionID: current.lifecycle.originalTransactionID,
            productID: currentProductID, productType: .autoRenewable, payment: entry.transaction.payment,
            state: .purchased, purchaseDate: period?.purchaseDate ?? now,
            originalPurchaseDate: original?.transaction.purchaseDate ?? now,
            expiresDate: current.lifecycle.periodEnd, webOrderLineItemID: period?.webOrderLineItemID,
            price: 0, currencyCode: entry.transaction.currencyCode, storefront: entry.transaction.storefront,
            subscriptionGroupID: info.groupID, billingPlanType: period?.billingPlanType,
            commitmentInfo: period?.commitmentInfo)
        current.latestTransactionID = entry.id
        records.append(JournalRecord.make(current))
        return (false, records)
    }

    // MARK: - Time passing

    /// Brings every subscription of `accountID` up to now: each renewal that fell due becomes
    /// a charged, purchased transaction, in order.
    func advance(accountID: String, state: inout JournalState) -> [JournalRecord] {
        var records: [JournalRecord] = []
        for var stored in state.subscriptions(accountID: accountID) where !stored.lifecycle.isExpired {
            let events = stored.lifecycle.advance(
                to: now, rate: rate, gracePeriodEnabled: settings.gracePeriod,
                billingFails: settings.billingRetryOnRenewal,
                lacksPriceConsent: state.lacksPriceConsent(stored), period: period(of:))
            guard !events.isEmpty else { continue }
            records += renewals(events, for: &stored, state: &state)
            records.append(JournalRecord.make(stored))
        }
        return records
    }

    /// When the store must next wake to `advance` `accountID`'s subscriptions: the earliest end
    /// of a current period, or for one in billing retry the end of its grace period or of the
    /// retry, whichever is still ahead. `nil` when no subscription runs.
    func nextWake(accountID: String, state: JournalState) -> Date? {
        let dues: [Date] = state.subscriptions(accountID: accountID).compactMap { stored in
            let l = stored.lifecycle
            guard !l.isExpired else { return nil }
            if let retry = l.billingRetryStart {
                let period = l.billingPeriod(period(of:)) ?? StoreCore.SubscriptionPeriod(value: 1, unit: .month)
                let retryEnd = retry.addingTimeInterval(rate.billingRetryPeriod(for: period))
                return [l.graceEnd, retryEnd].compactMap { $0 }.filter { $0 > now }.min()
            }
            return l.periodEnd
        }
        return dues.min()
    }

    /// Journals the renewal transactions of `events` and points `stored` at the last one.
    func renewals(
        _ events: [SubscriptionLifecycle.Event], for stored: inout StoredSubscription, state: inout JournalState
    ) -> [JournalRecord] {
        var records: [JournalRecord] = []
        for case .renewed(let productID, let start, let end, _, let billing) in events {
            guard let product = catalog.product(id: productID) else { continue }
            let latest = state.entries[stored.latestTransactionID]
            let original = state.entries[stored.lifecycle.originalTransactionID]
            // Renewals are charged where the customer subscribed, whatever storefront the
            // process that journals them happens to use.
            // A price increase the customer consented to charges its price from then on.
            let subscriberStorefront = storefront(latest?.transaction.storefront)
            let plan = billing.flatMap { plans.existingPlan($0.planType, of: product) }
            let listed =
                plan.map { plans.price(of: $0, for: product, in: subscriberStorefront) }
                ?? catalog.price(for: product, in: subscriberStorefront)
            // A price increase applies to the up-front price; a commitment's months keep theirs.
            let increased =
                billing?.commitment == nil
                ? state.increasedRenewalPrice(of: stored, into: productID, currencyCode: listed.currencyCode) : nil
            let price = increased ?? listed
            let transactionID = state.allocateTransactionID()
            var renewal = StoreCore.Transaction(
                transactionID: transactionID, originalTransactionID: stored.lifecycle.originalTransactionID,
                productID: productID, productType: .autoRenewable,
                payment: RenewalPayment.make(
                    productID: productID, applicationUsername: latest?.transaction.payment.applicationUsername,
                    appAccountToken: latest?.transaction.payment.appAccountToken, transactionID: transactionID),
                state: .purchased, purchaseDate: start,
                originalPurchaseDate: original?.transaction.purchaseDate ?? start,
                expiresDate: end, webOrderLineItemID: webOrderLineItemID(forPeriodOf: transactionID),
                price: price.amount, currencyCode: price.currencyCode, storefront: latest?.transaction.storefront,
                subscriptionGroupID: stored.lifecycle.groupID, billingPlanType: billing?.planType,
                commitmentInfo: billing.flatMap { plans.commitmentInfo($0, of: product, in: subscriberStorefront) })
            if stored.discountedRenewalsLeft > 0 {
                if let discount = Self.discountedRenewal(
                    of: stored, into: product, in: subscriberStorefront, catalog: catalog)
                {
                    renewal.price = discount.price.amount
                    renewal.currencyCode = discount.price.currencyCode
                    renewal.offerType = discount.kind
                    renewal.offerID = discount.offerID
                    stored.discountedRenewalsLeft -= 1
                } else {
                    // Renewed into another product: the offer ends with the product it was for.
                    stored.discountedRenewalsLeft = 0
                    stored.discountOfferID = nil
                }
            }
            let entry = QueueEntry(
                transaction: renewal, accountID: stored.accountID, charged: true, finished: false, pending: nil,
                owner: nil)
            state.put(entry)
            stored.latestTransactionID = entry.id
            records.append(JournalRecord.make(entry))
        }
        return records
    }

    /// The records that end the subscription's current period at `date`: its transactions
    /// (with a downgrade's answer and restored copies) expiring then and back in the queue, so
    /// an app that is not running gets the change at its next start.
    static func endLatestPeriod(of stored: StoredSubscription, at date: Date, state: JournalState) -> [JournalRecord] {
        guard let latest = state.entries[stored.latestTransactionID] else { return [] }
        return state.sameGrant(as: latest).compactMap { entry in
            guard (entry.transaction.expiresDate ?? .distantFuture) > date else { return nil }
            var ended = entry
            ended.transaction.expiresDate = date
            ended.finished = false
            return JournalRecord.make(ended)
        }
    }

    // MARK: - Helpers

    /// Whether a subscription still runs: in a period, in grace, in billing retry, or with
    /// renewals due that `advance` has not journaled yet.
    func isActive(_ lifecycle: SubscriptionLifecycle) -> Bool {
        !lifecycle.isExpired && (lifecycle.willAutoRenew || lifecycle.isActive(at: now))
    }

    /// The offer a discounted renewal is priced at, and what it is charged.
    struct DiscountedRenewal {
        /// The offer's terms in the catalog.
        let offer: StoreKitConfiguration.SubscriptionOffer
        /// Its kind: introductory, promotional, code or win-back.
        let kind: StoreCore.SubscriptionOffer.Kind
        /// Its identifier (nil for the introductory offer).
        let offerID: String?
        /// What the renewal is charged in the subscriber's storefront.
        let price: Price
    }

    /// How the next renewal of `stored` into `product` is discounted, if it is: the
    /// subscription's promotional, code or win-back offer, else the introductory offer, of the
    /// product renewed (an offer does not carry over to another product after a downgrade or
    /// crossgrade), priced by the catalog's offer rule in `storefront`; a pay-up-front offer
    /// charged its whole price with the period it began, so its later periods cost 0. Nil when
    /// no discounted renewal is left or the product has no such offer. Renewals are charged
    /// (`renewals`) and renewal info states them (`LocalAppStore.renewalDetails`) by this.
    static func discountedRenewal(
        of stored: StoredSubscription, into product: StoreKitConfiguration.Product, in storefront: Storefront,
        catalog: StoreKitConfiguration
    ) -> DiscountedRenewal? {
        guard stored.discountedRenewalsLeft > 0, let info = product.subscription else { return nil }
        var kind = StoreCore.SubscriptionOffer.Kind.introductory
        var found = info.introductoryOffer
        if let id = stored.discountOfferID {
            kind = info.kind(ofOffer: id)
            found = info.offer(id: id, kind: kind)
        }
        guard let offer = found else { return nil }
        var price = catalog.price(of: offer, for: product, in: storefront)
        let paidUpFront =
            offer.paymentMode == .payUpFront && stored.discountOfferID != nil
            && stored.discountedRenewalsLeft < max(offer.numberOfPeriods, 1)
        if paidUpFront { price.amount = 0 }
        return DiscountedRenewal(offer: offer, kind: kind, offerID: stored.discountOfferID, price: price)
    }

    private func transaction(
        _ t: StoreCore.Transaction, originalID: String, originalPurchaseDate: Date, start: Date, end: Date,
        billing: PeriodBilling?, product: StoreKitConfiguration.Product
    ) -> StoreCore.Transaction {
        StoreCore.Transaction(
            transactionID: t.transactionID, originalTransactionID: originalID, productID: t.productID,
            productType: .autoRenewable, payment: t.payment, state: .purchased, purchaseDate: start,
            originalPurchaseDate: originalPurchaseDate, expiresDate: end,
            webOrderLineItemID: webOrderLineItemID(forPeriodOf: t.transactionID), price: t.price,
            currencyCode: t.currencyCode, storefront: t.storefront, subscriptionGroupID: t.subscriptionGroupID,
            offerType: t.offerType, offerID: t.offerID, billingPlanType: billing?.planType,
            commitmentInfo: billing.flatMap { plans.commitmentInfo($0, of: product, in: storefront(t.storefront)) })
    }

    /// A numeric web order line item ID for the period that `transactionID` begins: derived
    /// from that transaction's ID, which the store never reuses, so no two periods share one
    /// however many renewals a subscription has.
    func webOrderLineItemID(forPeriodOf transactionID: String) -> String {
        guard let id = UInt64(transactionID), id < UInt64.max / 10 else { return transactionID }
        return String(id * 10 + 1)
    }

    private func fail(_ entry: inout QueueEntry, _ error: StoreError) {
        entry.transaction.state = .failed
        entry.transaction.error = error
    }
}
