import Foundation
import StoreCore
import StorefrontUI

/// What the storefront loads, and the two changes answered with a fresh load: where it shops
/// (a storefront switch brings its products along), the products, what the account has, the
/// settings, the server's notifications, a product's prices, and the viewer's documents.
struct StoreLoads: Sendable {
    let store: any StorefrontStore

    /// Runs a load effect → its `…Loaded` action.
    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async {
        switch effect {
        case .loadContext:
            send(.contextLoaded(.success(await store.context())))
        case .loadProducts:
            send(.catalog(.productsLoaded(await products())))
        case .loadPurchases:
            send(.purchasesLoaded(await purchases()))
        case .loadSettings:
            send(.settings(.loaded(await settings())))
        case .loadNotifications(let before):
            send(
                .notifications(
                    .loaded(
                        before: before,
                        await result { () async throws(StoreError) in
                            try await store.notifications(before: before)
                        })))
        case .loadServer:
            send(.serverLoaded(await store.serverURL()))
        case .loadAccounts:
            send(.accounts(.loaded(await result { () async throws(StoreError) in try await store.accounts() })))
        case .signIn(let id):
            send(.accounts(.signedIn(await changeAccount(id, store.signIn))))
        case .removeFromFamily(let id):
            send(.accounts(.removed(await changeAccount(id, store.removeFromFamily))))
        case .loadPriceComparison(let productID):
            send(
                .details(
                    .priceComparisonLoaded(productID: productID, await store.priceComparison(productID: productID))))
        case .loadReceipt:
            send(.receipt(.loaded(await result { () async throws(StoreError) in try await store.receiptDocument() })))
        case .loadTransaction(let id):
            send(
                .receipt(
                    .loaded(await result { () async throws(StoreError) in try await store.transactionDocument(id) }))
            )
        case .loadAppTransaction:
            send(
                .appTransactionLoaded(await result { () async throws(StoreError) in try await store.appTransaction() }))
        default:
            break
        }
    }

    /// Switches storefront and locale, remembers them for the next launch, and answers with the
    /// context and its products in one action, so the screen changes once.
    func switchStorefront(_ code: String, locale: String, send: @escaping @Sendable (Action) -> Void) async {
        do throws(StoreError) {
            try await store.setStorefront(code, locale: locale)
        } catch {
            send(.storefrontSwitched(.failure(error)))
            return
        }
        store.rememberStorefront(code, locale: locale)
        let context = await store.context()
        send(.storefrontSwitched(await products().map { StorefrontSwitch(context: context, products: $0) }))
    }

    /// Changes a setting; the settings come back with the answer (a refusal reloads them).
    func setSetting(_ name: String, value: String, send: @escaping @Sendable (Action) -> Void) async {
        do throws(StoreError) {
            try await store.setSetting(name: name, value: value)
            send(.settings(.changed(name: name, value: value, await settings())))
        } catch {
            send(.settings(.changed(name: name, value: value, .failure(error))))
        }
    }

    /// `change` made to the account `id`: the account's ID when it was made.
    func changeAccount(
        _ id: String, _ change: (String) async throws(StoreError) -> Void
    ) async -> Result<String, StoreError> {
        await result { () async throws(StoreError) in
            try await change(id)
            return id
        }
    }

    /// The products for the current storefront and locale, in catalog order.
    func products() async -> Result<[Product], StoreError> {
        await result { () async throws(StoreError) in try await store.products() }
    }

    /// The settings as the window shows them.
    func settings() async -> Result<[SettingRow], StoreError> {
        await result { () async throws(StoreError) in try await store.settings() }
    }

    /// What the account owns and what waits: the history newest first, the balances, what is
    /// owned (non-consumables) and until when (subscriptions, the latest expiry of each), the
    /// transactions waiting for a decision, the order IDs of purchases and renewals, the
    /// subscriptions as the store runs them, and who shares each `FAMILY_SHARED` transaction.
    func purchases() async -> Result<PurchasesSnapshot, StoreError> {
        await result { () async throws(StoreError) in
            let history = try await store.history().sorted { $0.purchaseDate > $1.purchaseDate }
            let balances = try await store.balances()
            var owned: Set<String> = []
            var activeUntil: [String: Date] = [:]
            for entitlement in try await store.entitlements() {
                if let expires = entitlement.expiresDate {
                    activeUntil[entitlement.productID] = max(expires, activeUntil[entitlement.productID] ?? expires)
                } else if entitlement.productType != .consumable {
                    owned.insert(entitlement.productID)
                }
            }
            let pending = try await store.pending()
            var orderIDs: [String: String] = [:]
            for t in history where t.state == .purchased {
                orderIDs[t.transactionID] = store.orderID(forTransactionID: t.transactionID)
            }
            let shared = history.filter { $0.ownershipType == .familyShared }
            return PurchasesSnapshot(
                transactions: history, balances: balances, owned: owned, activeUntil: activeUntil, pending: pending,
                subscriptions: try await store.subscriptions(history: history), orderIDs: orderIDs,
                sharedBy: shared.isEmpty ? [:] : try await store.sharers(of: shared))
        }
    }
}

/// The outcome of `body` as a `Result`, for an action that carries one.
func result<Success>(
    _ body: () async throws(StoreError) -> Success
) async -> Result<Success, StoreError> {
    do throws(StoreError) {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
