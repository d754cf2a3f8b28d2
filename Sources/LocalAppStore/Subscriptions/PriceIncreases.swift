import Foundation
import StoreCore

/// Price increases that need the customer's consent (App Store Connect's price change with
/// consent, and the customer's answer on the price consent sheet). One announced and not
/// consented to by the renewal date ends the subscription there (`lacksPriceConsent`).
extension Subscriptions {
    /// Announces a price increase to a subscriber (`PRICE_INCREASE`/`PENDING`), or records the
    /// customer's answer to the one announced. Consented, the subscription renews at `price`
    /// (its renewal info's `renewalPrice` says so from the announcement on); an increase
    /// announced without a price renews at the catalog's.
    /// - Parameters:
    ///   - id: a transaction ID of the subscription, or its product ID.
    ///   - consent: nil announces; otherwise the answer.
    ///   - price: the new price of a period in the subscriber's currency (announcing only): more
    ///     than the current one, with no more decimals than the currency has.
    /// - Throws: `.unknownTransaction`; `.notPending` for an expired subscription, or an answer
    ///   without an announced increase; `.invalidPrice` for a price that is no increase, does
    ///   not fit the currency, or comes with an answer.
    @discardableResult
    public func priceIncrease(
        _ id: String, consent: PriceConsent? = nil, price: Decimal? = nil
    ) async throws(LocalAppStoreError) -> PriceIncrease {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let now = store.configuration.clock.now
            let catalog = store.configuration.catalog
            let localizer = store.localizer
            let (increase, changed) = try store.transact { state throws(LocalAppStoreError) in
                guard let group = state.subscriptionGroup(named: id, accountID: account),
                    let stored = state.subscription(accountID: account, groupID: group)
                else { throw .unknownTransaction(id) }
                try Self.requireActive(stored, id, expected: "an active subscription")
                let original = stored.lifecycle.originalTransactionID
                let productID = stored.lifecycle.autoRenewProductID
                guard let consent else {
                    var increase = PriceIncrease(
                        originalTransactionID: original, accountID: account, productID: productID, date: now,
                        status: .pending)
                    if let price {
                        // The subscriber's price now, where they subscribed (as renewals are charged).
                        let storefront = state.entries[stored.latestTransactionID]?.transaction.storefront.flatMap(
                            Storefront.named)
                        guard let product = catalog.product(id: productID) else { throw .unknownProduct(productID) }
                        let agreed =
                            state.notifications.priceIncreases[original]?.status == .accepted
                            ? state.increasedRenewalPrice(of: stored, into: productID, currencyCode: nil) : nil
                        let current =
                            agreed ?? storefront.map { catalog.price(for: product, in: $0) }
                            ?? localizer.price(of: product)
                        try Self.checkIncrease(price, over: current, productID: productID)
                        increase.price = price
                        increase.currencyCode = current.currencyCode
                    }
                    return ([JournalRecord.make(NotificationRecord(priceIncrease: increase))], increase)
                }
                if let price {
                    throw .invalidPrice(
                        productID: productID, price: "\(price)",
                        reason: "a price goes with the announcement, not with the customer's answer")
                }
                guard var increase = state.currentPriceIncrease(of: stored), increase.status == .pending else {
                    throw .notPending(
                        transactionID: id, state: "without a pending price increase",
                        expected: "one announced ('store price-increase ID')")
                }
                increase.status = consent == .accept ? .accepted : .declined
                return ([JournalRecord.make(NotificationRecord(priceIncrease: increase))], increase)
            }
            store.announce(changed)
            Self.changed(in: store)
            return increase
        }
    }

    /// Refuses a new price that is no increase over `current` or has more decimals than its
    /// currency (the catalog's rule for prices: "1.999" cannot be charged in USD).
    nonisolated static func checkIncrease(
        _ price: Decimal, over current: Price, productID: String
    ) throws(LocalAppStoreError) {
        let text = Price(amount: price, currencyCode: current.currencyCode).decimalString
        let digits = Price.minorUnits(of: current.currencyCode)
        var scaled = price * pow(10, digits)
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .plain)
        guard whole == scaled else {
            throw .invalidPrice(
                productID: productID, price: text,
                reason: "it has more decimals than \(current.currencyCode) allows (\(digits))")
        }
        guard price > current.amount else {
            throw .invalidPrice(
                productID: productID, price: text,
                reason:
                    "a price increase must be more than the current price, \(current.decimalString) \(current.currencyCode)"
            )
        }
    }
}

extension JournalState {
    /// The price increase announced in the subscription's current period, if any: one from an
    /// earlier period was settled at that period's end (renewed after consent, or expired).
    func currentPriceIncrease(of stored: StoredSubscription) -> PriceIncrease? {
        guard let increase = notifications.priceIncreases[stored.lifecycle.originalTransactionID],
            increase.date >= stored.lifecycle.periodStart
        else { return nil }
        return increase
    }

    /// What the next renewal of `stored` into `productID` costs by its price increase, with the
    /// currency, when one prices it (see `PriceIncrease.renewalPrice`); `currencyCode` nil takes
    /// the increase's own.
    func increasedRenewalPrice(of stored: StoredSubscription, into productID: String, currencyCode: String?) -> Price? {
        guard let increase = notifications.priceIncreases[stored.lifecycle.originalTransactionID],
            let currency = currencyCode ?? increase.currencyCode,
            let amount = increase.renewalPrice(of: stored, into: productID, currencyCode: currency, in: self)
        else { return nil }
        return Price(amount: amount, currencyCode: currency)
    }

    /// Whether the subscription's current period has a price increase not consented to
    /// (pending or declined): at its renewal date it expires instead of renewing.
    func lacksPriceConsent(_ stored: StoredSubscription) -> Bool {
        currentPriceIncrease(of: stored).map { $0.status != .accepted } ?? false
    }
}
