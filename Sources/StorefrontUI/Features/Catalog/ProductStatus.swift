import Foundation
import StoreKitValues

/// What the list says about a product for this account: owned, balance, active until, a
/// download's state, refunded…
struct ProductStatus {
    let text: String
    let style: CellStyle

    /// The status of `product` in `state`, or nil when there is nothing to say.
    static func of(_ product: Product, in state: State) -> ProductStatus? {
        let s = state.strings
        let download = state.downloads.items.last { $0.productID == product.id }
        if let flow = state.buySheet.flows[product.id], flow.phase < .done,
            download.map({ $0.state.isTerminal }) ?? true
        {
            return ProductStatus(text: s("Purchasing…"), style: Theme.busy)
        }
        if let download, let status = downloadStatus(download, state) { return status }
        if let waiting = state.purchases.pending.first(where: { $0.productID == product.id && $0.state == .deferred }) {
            return waiting.error == .interrupted
                ? ProductStatus(text: s("Interrupted"), style: Theme.error)
                : ProductStatus(text: s("Waiting for approval"), style: Theme.waiting)
        }
        switch product.type {
        case .consumable:
            let balance = state.purchases.balances[product.id] ?? 0
            if balance > 0 { return ProductStatus(text: s("Balance {}", String(balance)), style: Theme.owned) }
        case .autoRenewable, .nonRenewing:
            if let status = subscription(product.id, in: state) { return status }
        default:
            if state.purchases.owned.contains(product.id) { return ProductStatus(text: s("Owned"), style: Theme.owned) }
        }
        if state.purchases.transactions.contains(where: { $0.productID == product.id && $0.revocationDate != nil }) {
            return ProductStatus(text: s("Refunded"), style: Theme.secondary)
        }
        return nil
    }

    /// A download's state on its product's row: under way, paused, failed or cancelled (a
    /// finished one says nothing more than the product's own status).
    private static func downloadStatus(_ download: Download, _ state: State) -> ProductStatus? {
        let s = state.strings
        let percent = Format.percent(download.fraction)
        switch download.state {
        case .active, .waiting: return ProductStatus(text: s("Downloading {}", percent), style: Theme.busy)
        case .paused: return ProductStatus(text: s("Paused {}", percent), style: Theme.waiting)
        case .failed: return ProductStatus(text: s("Download failed {}", percent), style: Theme.error)
        case .cancelled: return ProductStatus(text: s("Download cancelled"), style: Theme.error)
        default: return nil
        }
    }

    /// A subscription's status: active until (a free trial, or ending because auto-renew is
    /// off), in a grace period, in billing retry, or expired.
    static func subscription(_ productID: String, in state: State) -> ProductStatus? {
        let s = state.strings
        let managed = state.purchases.subscriptions.last { $0.productID == productID }
        switch managed?.phase {
        case .gracePeriod(let until):
            return ProductStatus(text: s("Grace until {}", Format.until(until, now: state.now)), style: Theme.waiting)
        case .billingRetry:
            return ProductStatus(text: s("Billing retry"), style: Theme.error)
        case .expired(let at) where state.purchases.activeUntil[productID] == nil:
            return ProductStatus(text: s("Expired {}", Format.day(at)), style: Theme.secondary)
        default:
            break
        }
        guard let until = state.purchases.activeUntil[productID] else { return nil }
        if let now = state.now, until <= now {
            return ProductStatus(text: s("Expired {}", Format.day(until)), style: Theme.secondary)
        }
        let when = Format.until(until, now: state.now)
        let commitment = commitmentProgress(productID, state).map { " · " + $0 } ?? ""
        if isInFreeTrial(productID, state) {
            return ProductStatus(text: s("Free trial until {}", when) + commitment, style: Theme.owned)
        }
        if let managed, !managed.willAutoRenew {
            return ProductStatus(text: s("Ends {} (auto-renew off)", when) + commitment, style: Theme.waiting)
        }
        return ProductStatus(text: s("Active until {}", when) + commitment, style: Theme.owned)
    }

    /// `Payment 3 of 12 · commitment ends Dec 7, 2027` for a monthly payment of a 12-month
    /// commitment (the latest transaction's), nil otherwise.
    static func commitmentProgress(_ productID: String, _ state: State) -> String? {
        guard
            let commitment = state.purchases.transactions.first(where: {
                $0.productID == productID && $0.revocationDate == nil
            })?.commitmentInfo
        else { return nil }
        return state.strings(
            "Payment {} of {} · commitment ends {}", String(commitment.billingPeriodNumber),
            String(commitment.totalBillingPeriods), Format.day(commitment.expirationDate))
    }

    /// Whether the subscription's current period is its introductory free trial.
    static func isInFreeTrial(_ productID: String, _ state: State) -> Bool {
        guard
            let latest = state.purchases.transactions.first(where: {
                $0.productID == productID && $0.revocationDate == nil
            }),
            latest.offerType == .introductory,
            state.product(productID)?.subscription?.introductoryOffer?.paymentMode == .freeTrial
        else { return false }
        return true
    }
}
