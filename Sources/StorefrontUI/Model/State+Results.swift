import Foundation
import StoreCore

/// Effects' results: loads, purchases, restores, commands.
extension State {
    /// The name people know a product by: its localized name, else its identifier.
    func name(of productID: String) -> String {
        product(productID).map(State.shownName) ?? productID
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
            let changed = context.map { $0.locale != loaded.locale || $0.storefront != loaded.storefront } ?? false
            adopt(loaded)
            if changed { return [.loadProducts] }
        case .contextLoaded(.failure(let error)):
            fail(error)
        case .storefrontSwitched(.success(let switched)):
            switchingTo = nil
            let before = context
            // Context and products together: never one storefront's header over another's prices.
            products = switched.products
            productsError = nil
            priceComparison = nil
            adopt(switched.context)
            if before?.storefront != switched.context.storefront || before?.locale != switched.context.locale {
                report(
                    strings("Storefront set to {} ({})", switched.context.storefront, switched.context.locale),
                    kind: .success)
            }
        case .storefrontSwitched(.failure(let error)):
            switchingTo = nil
            fail(error)
        case .productsLoaded(.success(let loaded)):
            products = loaded
            productsError = nil
            productsChanged()
        case .productsLoaded(.failure(let error)):
            productsError = error
            if products == nil { products = [] }
            productsChanged()
            fail(error)
        case .purchasesLoaded(.success(let snapshot)):
            purchases = snapshot
            clampModalSelection()
        case .purchasesLoaded(.failure(let error)):
            fail(error)
        case .serverLoaded(let url):
            serverURL = url
        case .settingsLoaded(.success(let loaded)):
            settings = loaded
            clampModalSelection()
        case .settingsLoaded(.failure(let error)):
            fail(error)
        case .notificationsLoaded(let before, .success(let page)):
            apply(page, before: before)
        case .notificationsLoaded(let before, .failure(let error)):
            if before != nil, loadingNotificationsBefore == before { loadingNotificationsBefore = nil }
            fail(error)
        case .settingChanged(let name, let value, .success(let loaded)):
            settings = loaded
            let row = settings.first { $0.name == name }
            let label = row.map { strings($0.label) } ?? name
            let shown = row.map { displayValue(of: $0, value) } ?? value
            report(strings("Setting {} changed to {}", label, shown), kind: .success)
        case .settingChanged(_, _, .failure(let error)):
            fail(error)
            return [.loadSettings]
        case .priceComparisonLoaded(let productID, let prices):
            priceComparison = PriceComparison(productID: productID, prices: prices)
        case .documentLoaded(.success(let loaded)):
            document = loaded
        case .documentLoaded(.failure(let error)):
            if case .document(_, let over) = modal { modal = over }
            fail(error)
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
        case .purchaseDownloadSettled(let productID, let download):
            return settlePurchaseDownload(productID, download)
        case .purchaseFinished(let productID, let result):
            return finishPurchase(productID, result)
        case .restoreFinished(let result):
            isRestoring = false
            switch result {
            case .success(let restored):
                report(
                    restored.isEmpty
                        ? strings("Nothing to restore")
                        : strings("Restored {}", CountedWords.phrase(restored.count, .purchase, strings.language)),
                    kind: .success)
            case .failure(let error):
                report(strings("Restore failed: {}", describe(error)), kind: .error)
            }
            return [.loadPurchases]
        case .receiptRefreshed(let result):
            switch result {
            case .success(let bytes):
                report(strings("Receipt refreshed ({})", Format.bytes(Int64(bytes))), kind: .success)
            case .failure(let error):
                report(strings("Receipt refresh failed: {}", describe(error)), kind: .error)
            }
        case .transactionCommandFinished(let command, let result):
            return reportAndReload(result.map { (transactionMessage(command, $0), .success) })
        case .subscriptionCommandFinished(let command, let result):
            return reportAndReload(result.map { subscriptionMessage(command, $0) })
        case .consumed(let productID, let result):
            return reportAndReload(
                result.map { (strings("Used 1 × {}: {} left", name(of: productID), String($0)), .success) })
        case .appTransactionLoaded(let result):
            showAppTransaction(result)
        default:
            break
        }
        return []
    }

    /// Takes a new context: the language, the estimated prices and the list follow it.
    private mutating func adopt(_ loaded: StoreContext) {
        context = loaded
        strings = Strings(UILanguage(locale: loaded.locale))
        productsChanged()
    }

    private mutating func finishPurchase(_ productID: String, _ result: Result<PurchaseOutcome, StoreError>) -> [Effect]
    {
        let name = name(of: productID)
        let quantity = flows[productID]?.quantity ?? 1
        let shown = quantity > 1 ? "\(quantity) × \(name)" : name
        if modal == .confirm(productID: productID) { modal = nil }
        switch result {
        case .success(.purchased):
            // Every step ticked: the sheet shows Done at 100 % a moment before it closes.
            if var flow = flows[productID] {
                flow.phase = .done
                flow.finishedAt = now ?? Date(timeIntervalSince1970: 0)
                flows[productID] = flow
            }
            report(strings("Purchased {}", shown), kind: .success)
            return [.loadPurchases]
        case .success(.pending):
            report(strings("{} is waiting for approval (Ask to Buy)", name))
        case .success(.interrupted):
            report(strings("{} was interrupted: resolve it in the Transaction Manager (t, then i)", name))
        case .success(.cancelled):
            report(strings("Purchase of {} cancelled", name))
        case .failure(let error):
            report(strings("Purchase of {} failed: {}", name, describe(error)), kind: .error)
        }
        closeFlow(productID)
        return [.loadPurchases]
    }

    /// A purchase's download stopped: finished, the purchase is done; otherwise it is bought
    /// but its content is not here, and the message says so and what to press.
    private mutating func settlePurchaseDownload(_ productID: String, _ download: Download?) -> [Effect] {
        if let download { update(download) }
        let name = name(of: productID)
        let percent = download.map { Format.percent($0.fraction) } ?? "?"
        switch download?.state {
        case .finished?, nil:
            if var flow = flows[productID] {
                flow.phase = .done
                flows[productID] = flow
            }
            return finishPurchase(productID, .success(.purchased(transactionID: download?.transactionID ?? "")))
        case .failed?:
            let reason = download?.error.map { "\($0)" } ?? "?"
            report(
                strings("Bought {}, but its download failed at {}: {} (space retries)", name, percent, reason),
                kind: .error)
        case .paused?:
            report(strings("Bought {}; its download is paused at {} (space resumes)", name, percent))
        default:
            report(strings("Bought {}; its download was cancelled (space starts it again)", name))
        }
        closeFlow(productID)
        return [.loadPurchases]
    }

    /// Reports a store command's outcome (its message, or `fail` for its error); the purchases
    /// load again either way.
    private mutating func reportAndReload(_ outcome: Result<(String, StatusMessage.Kind), StoreError>) -> [Effect] {
        switch outcome {
        case .success(let (text, kind)): report(text, kind: kind)
        case .failure(let error): fail(error)
        }
        return [.loadPurchases]
    }

    /// What a finished transaction command (approve, refund, a price increase…) says of `id`.
    private func transactionMessage(_ command: TransactionCommand, _ id: String) -> String {
        switch command {
        case .approve: strings("Approved transaction {}", id)
        case .decline: strings("Declined transaction {}", id)
        case .resolve: strings("Resolved transaction {}", id)
        case .refund: strings("Refunded transaction {}", id)
        case .requestRefund: strings("Refund requested for transaction {}", id)
        case .decideRefund(true): strings("Approved the refund request for transaction {}", id)
        case .decideRefund(false): strings("Declined the refund request for transaction {}", id)
        case .priceIncrease(nil): strings("Price increase announced for {}; + accepts, - declines", id)
        case .priceIncrease(true?): strings("The customer accepted the price increase for {}", id)
        case .priceIncrease(false?):
            strings("The customer declined the price increase for {}: it expires at its renewal date", id)
        case .reverseRefund: strings("Refund of transaction {} reversed: it grants again", id)
        }
    }

    /// What a subscription command did, from the subscription as it is afterwards: a renewal
    /// while billing fails is reported as the failure it is.
    private func subscriptionMessage(
        _ command: SubscriptionCommand, _ subscription: ManagedSubscription
    ) -> (String, StatusMessage.Kind) {
        let name = name(of: subscription.productID)
        switch (command, subscription.phase) {
        case (.renew, .gracePeriod(let until)):
            return (
                strings(
                    "Renewal of {} failed (billing issue): grace period until {}", name, Format.until(until, now: now)),
                .error
            )
        case (.renew, .billingRetry):
            return (strings("Renewal of {} failed (billing issue): in billing retry", name), .error)
        case (.renew, .expired):
            // The store ended it instead (a price increase without consent, auto-renew off).
            return (
                strings("{} expired instead of renewing: {}", name, expiryReason(subscription.expirationIntent)), .error
            )
        case (.renew, _):
            return (strings("Renewed {}: transaction {}", name, subscription.latestTransactionID), .success)
        case (.expire, _):
            return (strings("Expired {} now", name), .success)
        case (.setAutoRenew(true), _):
            return (strings("Auto-renew is on for {}", name), .success)
        case (.setAutoRenew, .active(let until)):
            return (strings("Cancelled {}: access until {}", name, Format.until(until, now: now)), .success)
        case (.setAutoRenew, _):
            return (strings("Auto-renew is off for {}", name), .success)
        case (.setBillingIssue(true), _):
            return (strings("Billing issue on for {}: its renewals fail", name), .success)
        default:
            return (strings("Billing issue resolved for {}", name), .success)
        }
    }

    /// Why a subscription ended, in words.
    private func expiryReason(_ intent: RenewalInfo.ExpirationIntent?) -> String {
        switch intent {
        case .priceIncrease?: strings("the customer did not consent to the price increase")
        case .cancelled?: strings("auto-renew was off")
        case .billingError?: strings("billing failed")
        case .productUnavailable?: strings("the product is no longer available")
        default: strings("the store ended it")
        }
    }

    /// Shows an error that belongs to no window: a message that does not block, and a log line.
    mutating func fail(_ error: StoreError) {
        report(strings("Error: {}", describe(error)), kind: .error)
    }

    /// A store error in the interface's language: the phrase once, then what the store said.
    func describe(_ error: StoreError) -> String {
        switch error {
        case .paymentCancelled: strings("The payment was cancelled.")
        case .paymentNotAllowed: strings("Payments are not allowed on this device or account.")
        case .networkError(let why): strings("The store could not be reached: {}", why)
        case .productNotAvailable(let id): strings("{} is not sold in this storefront.", name(of: id))
        case .unknownTransaction(let id): strings("No transaction {} is known.", id)
        case .interrupted: strings("The purchase was interrupted; resolve it to complete the purchase.")
        default: error.description
        }
    }

    /// How a setting's value reads: on/off translated, a bandwidth in bytes per second as
    /// `1.0 MB/s` (0 is unlimited), milliseconds as `250 ms`.
    func displayValue(of row: SettingRow, _ value: String) -> String {
        switch (row.unit, value) {
        case (_, "on"): return strings("On")
        case (_, "off"): return strings("Off")
        case (.bytesPerSecond, "0"): return strings("Unlimited")
        case (.bytesPerSecond, _): return Int64(value).map { Format.rate(Double($0)) } ?? value
        case (.milliseconds, _): return Int(value) != nil ? "\(value) ms" : value
        default: return value
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
            modal = .purchases(tab: tab, selected: min(selected, max(0, purchaseTabCounts[tab] - 1)))
        default: break
        }
    }
}
