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

    init(session: StoreSession) {
        self.session = session
    }

    private var store: Store { session.store }
    private var backend: LocalAppStore { session.backend }

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
            let ids = Set(session.selection.catalog.products.map(\.id))
            do {
                let response = try await store.requestProducts(ids, useCache: false)
                let order = Dictionary(uniqueKeysWithValues: session.selection.catalog.products.enumerated().map { ($1.id, $0) })
                send(.productsLoaded(.success(response.products.sorted { (order[$0.id] ?? 0) < (order[$1.id] ?? 0) })))
            } catch {
                send(.productsLoaded(.failure(error)))
            }
        case .loadPurchases:
            send(.purchasesLoaded(await purchases()))
        case .loadSettings:
            send(.settingsLoaded(await settings()))
        case .purchase(let productID, let quantity):
            await purchase(productID, quantity: quantity, send: send)
        case .restore:
            do {
                // StoreKit 2's AppStore.sync(): catch up with other processes, restore, report statuses.
                send(.restoreFinished(.success(try await store.sync())))
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
                send(.contextLoaded(.success(await context())))
            } catch {
                send(.contextLoaded(.failure(error.storeError)))
            }
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
                send(.storeEvent(.downloadFailed(Download(
                    id: id, transactionID: id, productID: id, contentVersion: "", state: .failed, bytesWritten: 0,
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

    /// Hears the engine until cancelled. The stream is taken first, so nothing the downloads
    /// carried on here report goes unheard; it ends when the task is cancelled.
    private func observeStore(send: @escaping @Sendable (Action) -> Void) async {
        let events = store.events()
        async let carriedOn: Void = carryOnDownloads(send: send)
        for await event in events { send(.storeEvent(event)) }
        await carriedOn
    }

    /// Downloads left waiting by an earlier process (killed mid-download) carry on, and every
    /// known download shows in the pane.
    private func carryOnDownloads(send: @escaping @Sendable (Action) -> Void) async {
        guard let downloads = store.downloads else { return }
        for download in await downloads.downloads() where download.state == .waiting {
            try? await downloads.resume(download.id)
        }
        for download in await downloads.downloads() where !download.state.isTerminal {
            send(.storeEvent(.downloadUpdated(download)))
        }
    }

    /// Starts a purchase's download (the storefront shows downloads, so it starts them; the
    /// CLI session does not by default) and answers its sheet once the download settles.
    /// `waitUntilSettled` does not answer cancellation: cancelled (at quit), this lingers
    /// until the download settles, and the runtime drops what it sends then.
    private func followDownload(_ id: String, productID: String, send: @escaping @Sendable (Action) -> Void) async {
        if let downloads = store.downloads {
            try? await downloads.resume(id)
            _ = try? await downloads.waitUntilSettled(id)
        }
        send(.purchasePhase(productID: productID, .done))
        send(.purchaseFinished(productID: productID, .success(.purchased(transactionID: id))))
    }

    private func purchase(_ productID: String, quantity: Int, send: @escaping @Sendable (Action) -> Void) async {
        // Contacting: the store is asked for the product afresh (a real round trip).
        do {
            _ = try await store.requestProducts([productID], useCache: false)
        } catch {
            send(.purchaseFinished(productID: productID, .failure(error)))
            return
        }
        send(.purchasePhase(productID: productID, .authorizing))
        let result = await store.purchase(productID, quantity: quantity)
        switch result {
        case .purchased(let transaction):
            send(.purchasePhase(productID: productID, .verifying))
            if let downloads = store.downloads,
               let download = await downloads.download(id: transaction.transactionID), download.state != .finished {
                // The sheet follows the download as an effect of its own (`.followDownload`);
                // a download's ID is its transaction's.
                send(.purchaseNeedsDownload(productID: productID, downloadID: download.id))
                return
            }
            send(.purchasePhase(productID: productID, .done))
            send(.purchaseFinished(productID: productID, .success(.purchased(transactionID: transaction.transactionID))))
        case .pending(let transaction):
            let interrupted = (try? await backend.pending())?.contains {
                $0.transaction.transactionID == transaction.transactionID && $0.reason == .interrupted
            } ?? false
            send(.purchaseFinished(productID: productID, .success(interrupted ? .interrupted : .pending)))
        case .cancelled, .taskCancelled:
            send(.purchaseFinished(productID: productID, .success(.cancelled)))
        case .unverified(let order):
            // Charged and kept; the message says verification is retried.
            send(.purchaseFinished(productID: productID, .failure(.verificationUnavailable(order.lastFailure))))
        case .failed(let error, _):
            send(.purchaseFinished(productID: productID, .failure(error)))
        }
    }

    /// Runs a subscription command of the Transaction Manager, lets the app record what it
    /// changed, and answers with the subscription as it is afterwards.
    private func subscriptionCommand(_ effect: Effect, id: String) async -> Result<ManagedSubscription, StoreError> {
        let latest: Transaction?
        do {
            latest = switch effect {
            case .renew: try await backend.renew(id)
            case .expire: try await backend.expire(id)
            case .setAutoRenew(_, let on): try await backend.setAutoRenew(id, on: on)
            case .setBillingIssue(_, let on): try await backend.setBillingIssue(id, on: on)
            default: nil
            }
        } catch {
            return .failure(.systemError(StoreSubscriptionVerbs.subscriptionMessage(error, id: id)))
        }
        await store.synchronize()
        guard let latest,
              let subscription = try? await managedSubscriptions(history: [latest])
                .first(where: { $0.originalTransactionID == latest.originalTransactionID })
        else { return .failure(.unknownTransaction(id)) }
        return .success(subscription)
    }

    /// The account's auto-renewable subscriptions as the store runs them, at the store clock's
    /// now; each names its latest transaction in `history` (newest first).
    private func managedSubscriptions(history: [Transaction]) async throws -> [ManagedSubscription] {
        let now = backend.configuration.clock.now
        return try await backend.subscriptions().map { lifecycle in
            let phase: ManagedSubscription.Phase =
                if let expiration = lifecycle.expiration { .expired(at: expiration.date) }
                else if let grace = lifecycle.graceEnd, lifecycle.isInGracePeriod(at: now) { .gracePeriod(until: grace) }
                else if let retry = lifecycle.billingRetryStart { .billingRetry(since: retry) }
                else { .active(until: lifecycle.periodEnd) }
            let latest = history.first { $0.originalTransactionID == lifecycle.originalTransactionID }
            return ManagedSubscription(
                originalTransactionID: lifecycle.originalTransactionID,
                latestTransactionID: latest?.transactionID ?? lifecycle.originalTransactionID, productID: lifecycle.productID,
                nextProductID: lifecycle.autoRenewProductID, phase: phase, willAutoRenew: lifecycle.willAutoRenew, hasBillingIssue: lifecycle.hasBillingIssue)
        }
    }

    private func context() async -> StoreContext {
        let catalog = session.selection.catalog
        var locales: [String] = []
        for product in catalog.products {
            for localization in product.localizations where !locales.contains(localization.locale) {
                locales.append(localization.locale)
            }
        }
        return StoreContext(
            storefront: await backend.storefront.code, locale: await backend.locale,
            account: backend.configuration.account.displayName,
            storefronts: Storefront.all.map {
                StorefrontOption(code: $0.code, name: $0.name, currencyCode: $0.currencyCode, defaultLocale: $0.locale)
            },
            locales: locales)
    }

    private func purchases() async -> Result<PurchasesSnapshot, StoreError> {
        do {
            let history = try await store.history().sorted { $0.purchaseDate > $1.purchaseDate }
            let balances = try await store.balances()
            let entitlements = try await store.currentEntitlements()
            var owned: Set<String> = []
            var activeUntil: [String: Date] = [:]
            for entitlement in entitlements {
                if let expires = entitlement.expiresDate {
                    activeUntil[entitlement.productID] = max(expires, activeUntil[entitlement.productID] ?? expires)
                } else if entitlement.productType != .consumable {
                    owned.insert(entitlement.productID)
                }
            }
            let pending = try await backend.pending().map { item -> Transaction in
                var transaction = item.transaction
                if item.reason == .interrupted { transaction.error = .interrupted }
                return transaction
            }
            return .success(PurchasesSnapshot(
                transactions: history, balances: balances, owned: owned, activeUntil: activeUntil, pending: pending,
                subscriptions: try await managedSubscriptions(history: history)))
        } catch let error as StoreError {
            return .failure(error)
        } catch let error as LocalAppStoreError {
            return .failure(error.storeError)
        } catch {
            return .failure(.persistenceFailed("\(error)"))
        }
    }

    /// The settings as the window shows them, made from the local store's one registry.
    private func settings() async -> Result<[SettingRow], StoreError> {
        do {
            return .success(try await backend.settings().map {
                SettingRow(name: $0.name, label: $0.label, value: $0.value, choices: $0.choices)
            })
        } catch {
            return .failure(error.storeError)
        }
    }
}
