import Foundation
import StoreCore

extension State {
    /// The name people know a product by: its localized name, else its identifier.
    func name(of productID: String) -> String {
        product(productID)?.displayName ?? productID
    }

    /// Whether the account may still take `product`'s introductory offer: it has one and the
    /// account never subscribed in its group (as the store decides at purchase).
    func isEligibleForIntroOffer(_ product: Product) -> Bool {
        guard let subscription = product.subscription, subscription.introductoryOffer != nil else { return false }
        return PurchaseQueries.isEligibleForIntroOffer(
            groupID: subscription.groupID, in: purchases.transactions.map(PurchaseRecord.init))
    }

    /// Applies an effect's result.
    mutating func applyResult(_ action: Action) -> [Effect] {
        switch action {
        case .contextLoaded(.success(let loaded)):
            let localeChanged = context.map { $0.locale != loaded.locale || $0.storefront != loaded.storefront } ?? false
            context = loaded
            strings = Strings(UILanguage(locale: loaded.locale))
            rebuildListing()
            if localeChanged {
                record(strings("Storefront set to {} ({})", loaded.storefront, loaded.locale))
                show(strings("Storefront set to {} ({})", loaded.storefront, loaded.locale), kind: .success)
                return [.loadProducts]
            }
        case .contextLoaded(.failure(let error)):
            fail(error)
        case .productsLoaded(.success(let loaded)):
            products = loaded
            productsError = nil
            rebuildListing()
        case .productsLoaded(.failure(let error)):
            productsError = error
            if products == nil { products = [] }
            rebuildListing()
            fail(error)
        case .purchasesLoaded(.success(let snapshot)):
            purchases = snapshot
            clampModalSelection()
        case .purchasesLoaded(.failure(let error)):
            fail(error)
        case .settingsLoaded(.success(let loaded)):
            settings = loaded
            clampModalSelection()
        case .settingsLoaded(.failure(let error)):
            fail(error)
        case .settingChanged(let name, let value, .success(let loaded)):
            settings = loaded
            let label = settings.first { $0.name == name }.map { strings($0.label) } ?? name
            show(strings("Setting {} changed to {}", label, strings(displayValue(value))), kind: .success)
            record(strings("Setting {} changed to {}", label, value))
        case .settingChanged(_, _, .failure(let error)):
            fail(error)
            return [.loadSettings]
        case .purchasePhase(let productID, let phase):
            if var flow = flows[productID], phase > flow.phase {
                flow.phase = phase
                flows[productID] = flow
            }
        case .purchaseNeedsDownload(let productID, let downloadID):
            if var flow = flows[productID], flow.phase < .downloading {
                flow.phase = .downloading
                flows[productID] = flow
            }
            return [.followDownload(id: downloadID, productID: productID)]
        case .purchaseFinished(let productID, let result):
            return finishPurchase(productID, result)
        case .restoreFinished(let result):
            isRestoring = false
            switch result {
            case .success(let restored):
                let text = restored.isEmpty ? strings("Nothing to restore") : strings("Restored {} purchases", String(restored.count))
                show(text, kind: .success)
                record(text)
            case .failure(let error):
                let text = strings("Restore failed: {}", describe(error))
                show(text, kind: .error)
                record(text, isError: true)
            }
            return [.loadPurchases]
        case .receiptRefreshed(let result):
            switch result {
            case .success(let bytes):
                let text = strings("Receipt refreshed ({} bytes)", String(bytes))
                show(text, kind: .success)
                record(text)
            case .failure(let error):
                let text = strings("Receipt refresh failed: {}", describe(error))
                show(text, kind: .error)
                record(text, isError: true)
            }
        case .transactionCommandFinished(let command, let result):
            switch result {
            case .success(let id):
                let text: String
                switch command {
                case .approve: text = strings("Approved transaction {}", id)
                case .decline: text = strings("Declined transaction {}", id)
                case .refund: text = strings("Refunded transaction {}", id)
                default: text = strings("Resolved transaction {}", id)
                }
                show(text, kind: .success)
                record(text)
            case .failure(let error):
                fail(error)
            }
            return [.loadPurchases]
        case .subscriptionCommandFinished(let command, let result):
            switch result {
            case .success(let subscription):
                let (text, kind) = subscriptionMessage(command, subscription)
                show(text, kind: kind)
                record(text, isError: kind == .error)
            case .failure(let error):
                fail(error)
            }
            return [.loadPurchases]
        case .consumed(let productID, let result):
            switch result {
            case .success:
                let text = strings("Consumed one {}", name(of: productID))
                show(text, kind: .success)
                record(text)
            case .failure(let error):
                fail(error)
            }
            return [.loadPurchases]
        case .appTransactionLoaded(let result):
            showAppTransaction(result)
        default:
            break
        }
        return []
    }

    private mutating func finishPurchase(_ productID: String, _ result: Result<PurchaseOutcome, StoreError>) -> [Effect] {
        let name = name(of: productID)
        let flow = flows.removeValue(forKey: productID)
        if modal == .purchase(productID: productID) || modal == .confirm(productID: productID) { modal = nil }
        switch result {
        case .success(.purchased):
            let text = strings("Purchased {}", name)
            show(text, kind: .success)
            record(text)
            // Content still downloading keeps showing in the downloads pane.
            _ = flow
        case .success(.pending):
            let text = strings("{} is waiting for approval (Ask to Buy)", name)
            show(text)
            record(text)
        case .success(.interrupted):
            let text = strings("{} was interrupted: resolve it in the Transaction Manager (t, then i)", name)
            show(text)
            record(text)
        case .success(.cancelled):
            let text = strings("Purchase of {} cancelled", name)
            show(text)
            record(text)
        case .failure(let error):
            let text = strings("Purchase of {} failed: {}", name, describe(error))
            show(text, kind: .error)
            record(text, isError: true)
        }
        return [.loadPurchases]
    }

    /// What a subscription command did, from the subscription as it is afterwards: a renewal
    /// while billing fails is reported as the failure it is.
    private func subscriptionMessage(_ command: Effect, _ subscription: ManagedSubscription) -> (String, StatusMessage.Kind) {
        let name = name(of: subscription.productID)
        switch (command, subscription.phase) {
        case (.renew, .gracePeriod(let until)):
            return (strings("Renewal of {} failed (billing issue): grace period until {}", name, Format.until(until, now: now)), .error)
        case (.renew, .billingRetry):
            return (strings("Renewal of {} failed (billing issue): in billing retry", name), .error)
        case (.renew, _):
            return (strings("Renewed {}: transaction {}", name, subscription.latestTransactionID), .success)
        case (.expire, _):
            return (strings("Expired {} now", name), .success)
        case (.setAutoRenew(_, true), _):
            return (strings("Auto-renew is on for {}", name), .success)
        case (.setAutoRenew, .active(let until)):
            return (strings("Cancelled {}: access until {}", name, Format.until(until, now: now)), .success)
        case (.setAutoRenew, _):
            return (strings("Auto-renew is off for {}", name), .success)
        case (.setBillingIssue(_, true), _):
            return (strings("Billing issue on for {}: its renewals fail", name), .success)
        default:
            return (strings("Billing issue resolved for {}", name), .success)
        }
    }

    /// Shows an error that belongs to no window: a message that does not block, and a log line.
    mutating func fail(_ error: StoreError) {
        let text = strings("Error: {}", describe(error))
        show(text, kind: .error)
        record(text, isError: true)
    }

    /// A store error in the interface's language where a translation exists.
    func describe(_ error: StoreError) -> String {
        switch error {
        case .paymentCancelled: strings("The payment was cancelled.")
        case .paymentNotAllowed: strings("Payments are not allowed on this device or account.")
        case .networkError: strings("The store could not be reached.") + " " + error.description
        default: error.description
        }
    }

    /// How a setting's value reads (`on`/`off` translated).
    func displayValue(_ value: String) -> String {
        switch value {
        case "on": "On"
        case "off": "Off"
        default: value
        }
    }

    /// Keeps a window's selection inside its rows after the rows changed.
    mutating func clampModalSelection() {
        switch modal {
        case .settings(let selected):
            modal = .settings(selected: min(selected, max(0, settings.count - 1)))
        case .transactions(let selected):
            modal = .transactions(selected: min(selected, max(0, managedTransactions.count - 1)))
        case .purchases(let tab, let selected):
            let counts = [purchases.transactions.count, balanceRows.count, subscriptionRows.count]
            modal = .purchases(tab: tab, selected: min(selected, max(0, counts[tab] - 1)))
        default: break
        }
    }

    // MARK: - Store events

    /// Applies an event from the engine: the log, downloads, and a reload of what changed.
    mutating func apply(_ event: StoreEvent) -> [Effect] {
        switch event {
        case .productsRequestFinished, .productsRequestFailed:
            // Answers to our own requests arrive as results too; the log is enough.
            if case .productsRequestFailed(let error) = event { record(describe(error), isError: true) }
            return []
        case .paymentFinished(let t):
            record(logLine("purchased", t))
            if var flow = flows[t.productID], flow.phase < .verifying {
                flow.phase = flow.hasDownloads ? .downloading : .verifying
                flows[t.productID] = flow
            }
            return [.loadPurchases]
        case .paymentFailed(let t, let error):
            record(logLine("failed", t) + " — " + describe(error), isError: true)
            if flows[t.productID] == nil { fail(error) }
            return [.loadPurchases]
        case .paymentDeferred(let t):
            record(logLine("deferred", t))
            return [.loadPurchases]
        case .paymentUnverified(let order):
            record(logLine("unverified", order.transaction) + " — " + order.lastFailure, isError: true)
            return [.loadPurchases]
        case .restoreFinished(let transactions):
            record("restore: \(transactions.count) restored")
            return []
        case .restoreFailed(let error):
            record("restore failed: " + describe(error), isError: true)
            return []
        case .refreshReceiptFinished(let data):
            record("receipt refreshed: \(data.count) bytes")
            return []
        case .refreshReceiptFailed(let error):
            record("receipt refresh failed: " + describe(error), isError: true)
            return []
        case .transactionRevoked(let t):
            record(logLine("revoked", t))
            return [.loadPurchases]
        case .subscriptionStatusChanged(let status):
            record("subscription \(status.groupID): \(status.state.rawValue)")
            return [.loadPurchases]
        case .downloadUpdated(let d), .downloadPaused(let d), .downloadCanceled(let d):
            update(d)
            if case .downloadUpdated = event {} else { record("download \(d.productID): \(d.state.rawValue)") }
            return []
        case .downloadFinished(let d):
            update(d)
            let text = strings("Download of {} finished", name(of: d.productID))
            record(text)
            show(text, kind: .success)
            return [.loadPurchases]
        case .downloadFailed(let d):
            update(d)
            let reason = d.error.map { "\($0)" } ?? "?"
            let text = strings("Download of {} failed: {}", name(of: d.productID), reason)
            record(text, isError: true)
            show(text, kind: .error)
            return []
        case .storefrontChanged(let storefront):
            return storefrontChanged(storefront)
        }
    }

    private func logLine(_ what: String, _ t: Transaction) -> String {
        "\(t.transactionID) \(t.productID) ×\(t.quantity) \(what)"
    }

    private mutating func update(_ download: Download) {
        if let i = downloads.firstIndex(where: { $0.id == download.id }) {
            downloads[i] = download
        } else {
            downloads.append(download)
        }
        if var flow = flows[download.productID], flow.phase < .downloading {
            flow.phase = .downloading
            flows[download.productID] = flow
        }
    }
}
