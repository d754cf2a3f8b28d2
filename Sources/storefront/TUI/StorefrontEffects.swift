import Catalog
import Foundation
import LocalAppStore
import StoreCore
import StorefrontRuntime
import StorefrontUI
import Synchronization

/// Runs the storefront's effects against the engine and the local App Store, and turns the
/// engine's events into actions. Wiring only: every decision lives in `reduce`, and every
/// task belongs to the runtime (`EffectRuntime`), which cancels it.
final class StorefrontEffects: EffectHandler {
    let session: StoreSession
    /// The store's revision at the last look (nil before the first).
    private let lookedAt = Mutex<Int?>(nil)

    /// Where the storefront and language chosen are remembered.
    let preferences: TUIPreferences?

    init(session: StoreSession, preferences: TUIPreferences? = nil) {
        self.session = session
        self.preferences = preferences
    }

    var store: Store { session.store }
    var backend: LocalAppStore { session.backend }

    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async {
        switch effect {
        case .observeStore:
            await observeStore(send: send)
        case .lookForChanges:
            // What another process changed (a decline, a cancel, a refund) may raise no engine
            // event: the reducer reloads purchases, but only when the store's journal moved
            // (always after the first look: the start-up load may predate what it pulled in).
            await store.synchronize()
            let revision = await backend.revision
            let previous = lookedAt.withLock { seen in
                defer { seen = revision }
                return seen
            }
            if previous != revision { send(.storeChanged) }
        case .followDownload(let id, let productID):
            await followDownload(id, productID: productID, send: send)
        case .loadContext:
            send(.contextLoaded(.success(await context())))
        case .loadProducts:
            send(.productsLoaded(await products()))
        case .loadPurchases:
            send(.purchasesLoaded(await purchases()))
        case .loadSettings:
            send(.settingsLoaded(await settings()))
        case .loadNotifications(let before):
            send(.notificationsLoaded(before: before, await notificationPage(before: before)))
        case .loadServer:
            send(.serverLoaded(ServerMarker.running(in: session.dataDirectory)?.url))
        case .purchase(let productID, let quantity, let offerID):
            await purchase(productID, quantity: quantity, offerID: offerID, send: send)
        case .restore:
            do {
                // Restore Purchases is StoreKit 1's restore: never non-renewing subscriptions
                // (`storefront sync` is StoreKit 2's). Others' changes arrive by the store's poll.
                send(.restoreFinished(.success(try await store.restoreTransactions())))
            } catch {
                send(.restoreFinished(.failure(error)))
            }
        case .refreshReceipt:
            do {
                send(.receiptRefreshed(.success(try await store.refreshReceipt().count)))
            } catch {
                send(.receiptRefreshed(.failure(error)))
            }
        case .setStorefront(let code, let locale):
            do {
                try await backend.setStorefront(code, locale: locale)
            } catch {
                send(.storefrontSwitched(.failure(error.storeError)))
                return
            }
            preferences?.save(storefront: code, locale: locale)
            // The context and its products in one action: the screen changes once.
            let context = await context()
            send(.storefrontSwitched(await products().map { StorefrontSwitch(context: context, products: $0) }))
        case .loadPriceComparison(let productID):
            send(.priceComparisonLoaded(productID: productID, await priceComparison(productID)))
        case .loadReceipt:
            send(.documentLoaded(await StorefrontDocuments(effects: self).receipt()))
        case .loadTransaction(let id):
            send(.documentLoaded(await StorefrontDocuments(effects: self).transaction(id)))
        case .setSetting(let name, let value):
            do {
                try await backend.set(name: name, value: value)
                send(.settingChanged(name: name, value: value, await settings()))
            } catch {
                send(.settingChanged(name: name, value: value, .failure(error.storeError)))
            }
        case .approve(let id), .decline(let id), .resolve(let id):
            do {
                switch effect {
                case .approve: _ = try await backend.approve(transactionID: id)
                case .decline: _ = try await backend.decline(transactionID: id)
                default: _ = try await backend.resolve(transactionID: id)
                }
                await store.synchronize()
                send(.transactionCommandFinished(effect, .success(id)))
            } catch {
                send(.transactionCommandFinished(effect, .failure(error.storeError)))
            }
        case .refund(let id):
            do {
                _ = try await backend.refund(transactionID: id)
                await store.synchronize()
                send(.transactionCommandFinished(effect, .success(id)))
            } catch {
                send(.transactionCommandFinished(effect, .failure(error.storeError)))
            }
        case .renew(let id), .expire(let id), .setAutoRenew(let id, _), .setBillingIssue(let id, _):
            send(.subscriptionCommandFinished(effect, await subscriptionCommand(effect, id: id)))
        case .consume(let productID, let quantity):
            do {
                send(.consumed(productID: productID, .success(try await store.consume(productID, quantity: quantity))))
            } catch let error as StoreError {
                send(.consumed(productID: productID, .failure(error)))
            } catch {
                send(.consumed(productID: productID, .failure(.persistenceFailed("\(error)"))))
            }
        case .pauseDownload(let id), .resumeDownload(let id), .cancelDownload(let id):
            guard let downloads = store.downloads else {
                send(
                    .storeEvent(
                        .downloadFailed(
                            Download(
                                id: id, transactionID: id, productID: id, contentVersion: "", state: .failed,
                                bytesWritten: 0,
                                totalBytes: 0))))
                return
            }
            do {
                switch effect {
                case .pauseDownload: _ = try await downloads.pause(id)
                case .resumeDownload: try await downloads.resume(id)
                default: _ = try await downloads.cancel(id)
                }
            } catch {
                send(.storeEvent(.productsRequestFailed(.unknown("download \(id): \(error)"))))
            }
        case .redeemOfferCode(let productID):
            await redeemOfferCode(productID, send: send)
        case .requestRefund(let id):
            do {
                _ = try await store.beginRefundRequest(for: id)
                send(.transactionCommandFinished(effect, .success(id)))
            } catch {
                send(.transactionCommandFinished(effect, .failure(.systemError(error.description))))
            }
        case .decideRefund(let id, let approve):
            do throws(LocalAppStoreError) {
                guard
                    let request = try await backend.refundRequests().last(where: {
                        $0.transactionID == id && $0.status == .pending
                    })
                else { throw LocalAppStoreError.unknownRefundRequest("for transaction \(id)") }
                if approve {
                    try await backend.approveRefundRequest(request.id)
                } else {
                    try await backend.declineRefundRequest(request.id)
                }
                await store.synchronize()
                send(.transactionCommandFinished(effect, .success(id)))
            } catch {
                send(.transactionCommandFinished(effect, .failure(error.storeError)))
            }
        case .priceIncrease(let id, let accept):
            do throws(LocalAppStoreError) {
                try await backend.priceIncrease(
                    id, consent: accept.map { $0 ? LocalAppStore.PriceConsent.accept : .decline })
                await store.synchronize()
                send(.transactionCommandFinished(effect, .success(id)))
            } catch {
                send(.transactionCommandFinished(effect, .failure(error.storeError)))
            }
        case .reverseRefund(let id):
            do throws(LocalAppStoreError) {
                try await backend.reverseRefund(transactionID: id)
                await store.synchronize()
                send(.transactionCommandFinished(effect, .success(id)))
            } catch {
                send(.transactionCommandFinished(effect, .failure(error.storeError)))
            }
        case .loadAppTransaction:
            do {
                send(.appTransactionLoaded(.success(try await store.appTransaction())))
            } catch {
                send(.appTransactionLoaded(.failure(error)))
            }
        case .tick, .every, .cancel, .quit:
            // The runtime's own.
            break
        }
    }

}
