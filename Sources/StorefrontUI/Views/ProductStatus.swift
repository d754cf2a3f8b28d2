import Foundation
import StoreCore

/// What the list says about a product for this account: owned, balance, active until…
struct ProductStatus {
    let text: String
    let style: CellStyle

    /// The status of `product` in `state`, or nil when there is nothing to say.
    static func of(_ product: Product, in state: State) -> ProductStatus? {
        let s = state.strings
        let download = state.downloads.last(where: { $0.productID == product.id && !$0.state.isTerminal })
        if let flow = state.flows[product.id], flow.phase < .done, download == nil {
            return ProductStatus(text: s("Purchasing…"), style: Theme.busy)
        }
        if let download {
            let percent = "\(Int((download.fraction * 100).rounded(.down)))%"
            return ProductStatus(text: s("Downloading {}", percent), style: Theme.busy)
        }
        if let waiting = state.purchases.pending.first(where: { $0.productID == product.id && $0.state == .deferred }) {
            return waiting.error == .interrupted
                ? ProductStatus(text: s("Interrupted"), style: Theme.error)
                : ProductStatus(text: s("Waiting for approval"), style: Theme.waiting)
        }
        switch product.type {
        case .consumable:
            let balance = state.purchases.balances[product.id] ?? 0
            return balance > 0 ? ProductStatus(text: s("Balance {}", String(balance)), style: Theme.owned) : nil
        case .autoRenewable, .nonRenewing:
            return subscription(product.id, in: state)
        default:
            return state.purchases.owned.contains(product.id)
                ? ProductStatus(text: s("Owned"), style: Theme.owned) : nil
        }
    }

    /// A subscription's status: active until, in a grace period (billing failed, access goes
    /// on), in billing retry (no access), or expired.
    static func subscription(_ productID: String, in state: State) -> ProductStatus? {
        let s = state.strings
        switch state.purchases.subscriptions.last(where: { $0.productID == productID })?.phase {
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
        return ProductStatus(text: s("Active until {}", Format.until(until, now: state.now)), style: Theme.owned)
    }
}
