import Foundation
import StoreCore

/// Keys on the product list and in the filter field; the windows' keys are in
/// `State+Windows.swift`.
extension State {
    /// Handles a key in the current mode: a window, the filter field, or the product list.
    mutating func handle(_ key: Key) -> [Effect] {
        // Ctrl-C (when the terminal sends it as a key) leaves at once, as SIGINT does.
        if key == .control("c") { return quit(status: 128 + 2) }
        guard fitsMinimumSize else {
            // q quits, as on the list; Esc goes back, and there is nothing to go back from.
            if key == .character("q") { return askToQuit() }
            return []
        }
        if let modal { return handle(key, in: modal) }
        if isFiltering { return handleFilter(key) }
        return handleList(key)
    }

    /// Leaves now with `status`.
    mutating func quit(status: Int32 = 0) -> [Effect] {
        exitStatus = status
        isQuitting = true
        modal = nil
        return [.quit]
    }

    /// Quits, after asking when downloads are under way.
    mutating func askToQuit() -> [Effect] {
        let running = activeDownloads.count
        guard running == 0 else {
            modal = .question(.quit(downloads: running), over: modal)
            return []
        }
        return quit()
    }

    /// The number of list rows a page key moves.
    var listPage: Int { max(1, Layout(state: self).listRows - 1) }

    private mutating func handleList(_ key: Key) -> [Effect] {
        switch key {
        case .up, .character("k"): moveSelection(by: -1)
        case .down, .character("j"): moveSelection(by: 1)
        case .pageUp, .control("b"): moveSelection(by: -listPage)
        case .pageDown, .control("f"): moveSelection(by: listPage)
        case .home: selectEdge(last: false)
        case .end, .character("G"): selectEdge(last: true)
        case .enter: return openConfirmation()
        case .character("/"):
            isFiltering = true
        case .escape:
            // Esc goes back (closes a window, clears the filter) and never quits: pressed once
            // too often on the way back to the list, it must not end the app. q quits.
            if !filter.isEmpty {
                filter = ""
                refilter()
            }
        case .character("?"), .function(1): modal = .help()
        case .character("m"), .function(2):
            modal = .menu(selected: 0)
            // The menu says whether a server runs on the data directory: look again as it opens.
            return [.loadServer]
        case .character("l"):
            showsLog.toggle()
            keepSelectionVisible()
        case .character("g"):
            grouping =
                ProductListing.Grouping(rawValue: (grouping.rawValue + 1) % ProductListing.Grouping.allCases.count)
                ?? .subscriptionGroup
            regroup()
            show(strings("Grouped: {}", strings(groupingLabel)))
        case .character("S"):
            sort = ProductListing.Sort(rawValue: (sort.rawValue + 1) % ProductListing.Sort.allCases.count) ?? .catalog
            regroup()
            show(strings("Sorted by {}", strings(sortLabel)))
        case .character("d"): return openDetails()
        case .character(" "): return toggleDownloadPause()
        case .character("x"): return askToCancelDownload()
        case .character("q"): return askToQuit()
        case .character("i"): return [.loadAppTransaction]
        case .character("c"): return redeemOfferCode()
        case .character(let c):
            if let item = MenuItem.allCases.first(where: { $0.key == c }) { return run(item) }
        default: break
        }
        return []
    }

    /// The English name of the grouping (localized through `Strings`).
    var groupingLabel: String {
        switch grouping {
        case .subscriptionGroup: "by type and subscription group"
        case .type: "by type"
        case .none: "none"
        }
    }

    /// The English name of the sort order (localized through `Strings`).
    var sortLabel: String {
        switch sort {
        case .catalog: "catalog order"
        case .name: "name"
        case .price: "price"
        case .type: "type"
        }
    }

    private mutating func handleFilter(_ key: Key) -> [Effect] {
        switch key {
        case .escape:
            isFiltering = false
            filter = ""
            refilter()
        case .enter:
            isFiltering = false
        case .up: moveSelection(by: -1)
        case .down: moveSelection(by: 1)
        case .pageUp: moveSelection(by: -listPage)
        case .pageDown: moveSelection(by: listPage)
        case .backspace:
            if filter.isEmpty {
                isFiltering = false
            } else {
                filter.removeLast()
                refilter()
            }
        case .control("u"):
            filter = ""
            refilter()
        case .character(let c):
            filter.append(c)
            refilter()
        default: break
        }
        return []
    }

    private mutating func openConfirmation() -> [Effect] {
        // A storefront switch under way: the prices on screen are the old storefront's.
        if let switchingTo {
            show(strings("Switching to {}: wait for its prices", switchingTo))
            return []
        }
        guard let product = selectedProduct else { return [] }
        if product.type == .nonConsumable, purchases.owned.contains(product.id) {
            show(strings("You already own {}", State.shownName(product)))
            return []
        }
        if let flow = flows[product.id], flow.phase < .done {
            modal = .purchase(productID: product.id)
            return []
        }
        modal = .confirm(productID: product.id)
        return []
    }

    private mutating func openDetails() -> [Effect] {
        guard let product = selectedProduct else { return [] }
        modal = .details(productID: product.id)
        return priceComparison?.productID == product.id ? [] : [.loadPriceComparison(productID: product.id)]
    }

    /// The download the download keys act on: the selected product's, else the first open one.
    var targetDownload: Download? {
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

    private mutating func askToCancelDownload() -> [Effect] {
        guard let download = targetDownload, !download.state.isTerminal else { return [] }
        modal = .question(.cancelDownload(id: download.id, productID: download.productID), over: nil)
        return []
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
        case .viewReceipt:
            document = nil
            modal = .document(scroll: 0, over: nil)
            return [.loadReceipt]
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
        case .eventLog:
            modal = .log(selected: max(0, log.count - 1))
            return []
        case .notifications:
            return openNotifications()
        case .quit:
            return askToQuit()
        }
    }
}
