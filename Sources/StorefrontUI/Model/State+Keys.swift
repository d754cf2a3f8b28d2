import Foundation
import StoreCore

extension State {
    /// Handles a key in the current mode: a window, the filter field, or the product list.
    mutating func handle(_ key: Key) -> [Effect] {
        if key == .control("c") { return quit() }
        guard fitsMinimumSize else {
            if key == .character("q") || key == .escape { return quit() }
            return []
        }
        if let modal { return handle(key, in: modal) }
        if isFiltering { return handleFilter(key) }
        return handleList(key)
    }

    private mutating func quit() -> [Effect] {
        isQuitting = true
        return [.quit]
    }

    // MARK: - The product list

    private mutating func handleList(_ key: Key) -> [Effect] {
        let page = max(1, Layout(state: self).listRows - 1)
        switch key {
        case .up, .character("k"): moveSelection(by: -1)
        case .down, .character("j"): moveSelection(by: 1)
        case .pageUp, .control("b"): moveSelection(by: -page)
        case .pageDown, .control("f"): moveSelection(by: page)
        case .home: selectEdge(last: false)
        case .end, .character("G"): selectEdge(last: true)
        case .enter: return openConfirmation()
        case .character("/"):
            isFiltering = true
        case .escape:
            if !filter.isEmpty {
                filter = ""
                rebuildListing()
            }
        case .character("?"), .function(1): modal = .help
        case .character("m"), .function(2): modal = .menu(selected: 0)
        case .character("l"): showsLog.toggle(); keepSelectionVisible()
        case .character("g"):
            grouping = grouping == .type ? .subscriptionGroup : .type
            rebuildListing()
        case .character(" "): return toggleDownloadPause()
        case .character("x"): return cancelDownload()
        case .character("i"): return [.loadAppTransaction]
        case .character(let c):
            if let item = MenuItem.allCases.first(where: { $0.key == c }) { return run(item) }
        default: break
        }
        return []
    }

    private mutating func handleFilter(_ key: Key) -> [Effect] {
        switch key {
        case .escape:
            isFiltering = false
            filter = ""
            rebuildListing()
        case .enter:
            isFiltering = false
        case .up: moveSelection(by: -1)
        case .down: moveSelection(by: 1)
        case .backspace:
            if filter.isEmpty {
                isFiltering = false
            } else {
                filter.removeLast()
                rebuildListing()
            }
        case .control("u"):
            filter = ""
            rebuildListing()
        case .character(let c):
            filter.append(c)
            rebuildListing()
        default: break
        }
        return []
    }

    private mutating func openConfirmation() -> [Effect] {
        guard let product = selectedProduct else { return [] }
        if product.type == .nonConsumable, purchases.owned.contains(product.id) {
            show(strings("You already own {}", product.displayName))
            return []
        }
        if let flow = flows[product.id], flow.phase < .done {
            modal = .purchase(productID: product.id)
            return []
        }
        modal = .confirm(productID: product.id)
        return []
    }

    /// The download the download keys act on: the selected product's, else the first open one.
    private var targetDownload: Download? {
        let open = downloads.filter { !$0.state.isTerminal || $0.state == .failed || $0.state == .cancelled }
        if let id = selectedProduct?.id, let own = open.last(where: { $0.productID == id }) { return own }
        return open.first { !$0.state.isTerminal }
    }

    private mutating func toggleDownloadPause() -> [Effect] {
        guard let download = targetDownload else { return [] }
        switch download.state {
        case .paused, .failed, .cancelled: return [.resumeDownload(id: download.id)]
        case .active, .waiting: return [.pauseDownload(id: download.id)]
        default: return []
        }
    }

    private mutating func cancelDownload() -> [Effect] {
        guard let download = targetDownload, !download.state.isTerminal else { return [] }
        return [.cancelDownload(id: download.id)]
    }

    /// Runs a menu item.
    mutating func run(_ item: MenuItem) -> [Effect] {
        modal = nil
        switch item {
        case .restore:
            guard !isRestoring else { return [] }
            isRestoring = true
            show(strings("Restoring purchases…"))
            return [.restore]
        case .refreshReceipt:
            show(strings("Refreshing the receipt…"))
            return [.refreshReceipt]
        case .storefront:
            let storefronts = context?.storefronts ?? []
            let current = storefronts.firstIndex { $0.code == context?.storefront } ?? 0
            let locale = context?.locales.firstIndex { $0 == context?.locale } ?? 0
            modal = .storefronts(storefront: current, locale: locale, column: 0)
            return []
        case .settings:
            modal = .settings(selected: 0)
            return [.loadSettings]
        case .transactionManager:
            modal = .transactions(selected: 0)
            return [.loadPurchases]
        case .myPurchases:
            modal = .purchases(tab: 0, selected: 0)
            return [.loadPurchases]
        case .quit:
            return quit()
        }
    }

    // MARK: - Windows

    private mutating func handle(_ key: Key, in modal: Modal) -> [Effect] {
        let closes = key == .escape || key == .character("q")
        switch modal {
        case .confirm(let productID):
            switch key {
            case .enter, .character("y"), .character("b"):
                guard let product = product(productID) else { self.modal = nil; return [] }
                flows[productID] = PurchaseFlow(productID: productID, hasDownloads: product.hasDownloads)
                self.modal = .purchase(productID: productID)
                return [.purchase(productID: productID, quantity: 1)]
            case .escape, .character("n"), .character("q"):
                self.modal = nil
            default: break
            }
        case .purchase:
            if closes || key == .enter { self.modal = nil }
        case .help:
            if closes || key == .character("?") || key == .enter { self.modal = nil }
        case .menu(let selected):
            let items = MenuItem.allCases
            switch key {
            case .up, .character("k"): self.modal = .menu(selected: (selected + items.count - 1) % items.count)
            case .down, .character("j"): self.modal = .menu(selected: (selected + 1) % items.count)
            case .enter: return run(items[min(max(0, selected), items.count - 1)])
            case .escape, .character("m"): self.modal = nil
            case .character(let c):
                if let item = items.first(where: { $0.key == c }) { return run(item) }
            default: break
            }
        case .storefronts(let storefront, let locale, let column):
            return handleStorefronts(key, storefront: storefront, locale: locale, column: column)
        case .settings(let selected):
            return handleSettings(key, selected: selected)
        case .transactions(let selected):
            return handleTransactions(key, selected: selected)
        case .purchases(let tab, let selected):
            return handlePurchases(key, tab: tab, selected: selected)
        }
        return []
    }

    private mutating func handleStorefronts(_ key: Key, storefront: Int, locale: Int, column: Int) -> [Effect] {
        let storefronts = context?.storefronts ?? []
        let locales = context?.locales ?? []
        switch key {
        case .escape, .character("q"): modal = nil
        case .tab, .backTab, .left, .right, .character("h"), .character("l"):
            modal = .storefronts(storefront: storefront, locale: locale, column: column == 0 ? 1 : 0)
        case .up, .down, .character("k"), .character("j"):
            let step = (key == .up || key == .character("k")) ? -1 : 1
            if column == 0, !storefronts.isEmpty {
                let next = min(max(0, storefront + step), storefronts.count - 1)
                // A new storefront brings its own language when the catalog has it.
                let localeIndex = locales.firstIndex(of: storefronts[next].defaultLocale) ?? locale
                modal = .storefronts(storefront: next, locale: localeIndex, column: 0)
            } else if column == 1, !locales.isEmpty {
                modal = .storefronts(storefront: storefront, locale: min(max(0, locale + step), locales.count - 1), column: 1)
            }
        case .character(let c) where c.isUppercase && c.isASCII:
            // Type the first letter of a code to jump there (again for the next one).
            guard let next = (1...max(1, storefronts.count)).lazy
                .map({ (storefront + $0) % max(1, storefronts.count) })
                .first(where: { storefronts.indices.contains($0) && storefronts[$0].code.first == c })
            else { return [] }
            let localeIndex = locales.firstIndex(of: storefronts[next].defaultLocale) ?? locale
            modal = .storefronts(storefront: next, locale: localeIndex, column: 0)
        case .enter:
            modal = nil
            guard storefront < storefronts.count else { return [] }
            let code = storefronts[storefront].code
            let chosenLocale = locale < locales.count ? locales[locale] : storefronts[storefront].defaultLocale
            return [.setStorefront(code: code, locale: chosenLocale)]
        default: break
        }
        return []
    }

    private mutating func handleSettings(_ key: Key, selected: Int) -> [Effect] {
        switch key {
        case .escape, .character("q"), .character("o"): modal = nil
        case .up, .character("k"): modal = .settings(selected: max(0, selected - 1))
        case .down, .character("j"): modal = .settings(selected: min(max(0, settings.count - 1), selected + 1))
        case .enter, .character(" "), .right, .left, .character("l"), .character("h"):
            guard selected < settings.count else { return [] }
            let step = (key == .left || key == .character("h")) ? -1 : 1
            let next = settings[selected].cycled(by: step)
            // Shown at once, so a second key press cycles on from here; a refusal reloads.
            settings[selected].value = next
            return [.setSetting(name: settings[selected].name, value: next)]
        default: break
        }
        return []
    }

    /// The rows of the Transaction Manager: transactions waiting for a decision, then the
    /// account's purchases (which may be refunded), newest first by original purchase, so a
    /// renewal does not move its row. An auto-renewable subscription is one row, its latest
    /// transaction, which stands for the subscription.
    var managedTransactions: [Transaction] {
        let pendingIDs = Set(purchases.pending.map(\.transactionID))
        var subscriptionsSeen: Set<String> = []
        // History is newest first, so the first transaction of a subscription is its latest.
        let settled = purchases.transactions.filter { t in
            guard !pendingIDs.contains(t.transactionID) else { return false }
            if t.productType == .autoRenewable, !subscriptionsSeen.insert(t.originalTransactionID).inserted { return false }
            return t.state == .purchased && t.revocationDate == nil
        }
        return purchases.pending + settled.sorted {
            ($0.originalPurchaseDate, $0.originalTransactionID) > ($1.originalPurchaseDate, $1.originalTransactionID)
        }
    }

    /// The subscription a transaction belongs to, as the store runs it.
    func managedSubscription(for transaction: Transaction) -> ManagedSubscription? {
        guard transaction.productType == .autoRenewable else { return nil }
        return purchases.subscriptions.first { $0.originalTransactionID == transaction.originalTransactionID }
    }

    private mutating func handleTransactions(_ key: Key, selected: Int) -> [Effect] {
        let rows = managedTransactions
        switch key {
        case .escape, .character("q"), .character("t"): modal = nil
        case .up, .character("k"): modal = .transactions(selected: max(0, selected - 1))
        case .down, .character("j"): modal = .transactions(selected: min(max(0, rows.count - 1), selected + 1))
        case .character("a"), .character("d"), .character("f"), .character("i"):
            guard selected < rows.count else { return [] }
            let id = rows[selected].transactionID
            switch key {
            case .character("a"): return [.approve(transactionID: id)]
            case .character("d"): return [.decline(transactionID: id)]
            case .character("f"): return [.refund(transactionID: id)]
            default: return [.resolve(transactionID: id)]
            }
        case .character("n"), .character("x"), .character("c"), .character("b"):
            guard selected < rows.count else { return [] }
            let transaction = rows[selected]
            guard let subscription = managedSubscription(for: transaction) else {
                show(strings("{} is not an auto-renewable subscription", name(of: transaction.productID)), kind: .error)
                return []
            }
            let id = transaction.transactionID
            switch key {
            case .character("n"): return [.renew(transactionID: id)]
            case .character("x"): return [.expire(transactionID: id)]
            case .character("c"): return [.setAutoRenew(transactionID: id, on: !subscription.willAutoRenew)]
            default: return [.setBillingIssue(transactionID: id, on: !(subscription.hasBillingIssue || subscription.isInBillingRetry))]
            }
        default: break
        }
        return []
    }

    /// The consumables with a balance, for My Purchases → Balances.
    var balanceRows: [(productID: String, count: Int)] {
        purchases.balances.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The subscriptions the account has or had (active, failing billing, or ended), for My
    /// Purchases → Subscriptions, by product ID.
    var subscriptionRows: [String] {
        Set(purchases.activeUntil.keys).union(purchases.subscriptions.map(\.productID)).sorted()
    }

    private mutating func handlePurchases(_ key: Key, tab: Int, selected: Int) -> [Effect] {
        let counts = [purchases.transactions.count, balanceRows.count, subscriptionRows.count]
        switch key {
        case .escape, .character("q"), .character("p"): modal = nil
        case .tab, .right, .character("l"): modal = .purchases(tab: (tab + 1) % 3, selected: 0)
        case .backTab, .left, .character("h"): modal = .purchases(tab: (tab + 2) % 3, selected: 0)
        case .up, .character("k"), .pageUp, .home:
            let step = key == .pageUp ? 10 : key == .home ? selected : 1
            modal = .purchases(tab: tab, selected: max(0, selected - step))
        case .down, .character("j"), .pageDown, .end:
            let step = key == .pageDown ? 10 : key == .end ? counts[tab] : 1
            modal = .purchases(tab: tab, selected: min(max(0, counts[tab] - 1), selected + step))
        case .character("c"):
            let rows = balanceRows
            guard tab == 1, selected < rows.count else { return [] }
            return [.consume(productID: rows[selected].productID, quantity: 1)]
        default: break
        }
        return []
    }
}
