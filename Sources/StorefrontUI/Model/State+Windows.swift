import Foundation
import StoreCore

/// Keys in the windows over the list: the purchase sheet, menu, help, storefronts, settings,
/// My Purchases, product details, the document viewer, the log, and questions.
extension State {
    mutating func handle(_ key: Key, in modal: Modal) -> [Effect] {
        let closes = key == .escape || key == .character("q")
        switch modal {
        case .confirm(let productID, let quantity, let offer):
            return handleConfirm(key, productID: productID, quantity: quantity, offer: offer)
        case .purchase(let productID):
            if closes || key == .enter {
                self.modal = nil
                if flows[productID]?.finishedAt != nil { closeFlow(productID) }
            }
        case .help(let scroll):
            if closes || key == .character("?") || key == .enter {
                self.modal = nil
            } else if let next = scrolled(
                scroll, by: key, limit: PageView.scrollLimit(lines: SheetView.helpLineCount(self), in: self))
            {
                self.modal = .help(scroll: next)
            }
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
        case .details(let productID, let scroll):
            if closes || key == .character("d") || key == .enter {
                self.modal = nil
            } else if let next = scrolled(
                scroll, by: key, limit: PageView.scrollLimit(lines: DetailsView.lineCount(productID, self), in: self))
            {
                self.modal = .details(productID: productID, scroll: next)
            }
        case .document(let scroll, let over):
            if closes || key == .enter {
                self.modal = over
            } else if let next = scrolled(
                scroll, by: key, limit: PageView.scrollLimit(lines: DocumentView.lineCount(self), in: self))
            {
                self.modal = .document(scroll: next, over: over)
            }
        case .log(let selected, let showsDetail):
            return handleLog(key, selected: selected, showsDetail: showsDetail)
        case .notifications(let selected):
            return handleNotifications(key, selected: selected)
        case .question(let question, let over):
            switch key {
            case .enter, .character("y"), .character("Y"):
                self.modal = over
                if case .quit = question { return quit() }
                return [question.effect]
            case .escape, .character("n"), .character("N"), .character("q"):
                self.modal = over
            default: break
            }
        }
        return []
    }

    /// A scroll position moved by a key (nil when the key does not scroll), kept in 0…limit.
    func scrolled(_ scroll: Int, by key: Key, limit: Int) -> Int? {
        let page = max(1, PageView.visibleRows(in: self) - 1)
        let next: Int
        switch key {
        case .up, .character("k"): next = scroll - 1
        case .down, .character("j"): next = scroll + 1
        case .pageUp, .control("b"): next = scroll - page
        case .pageDown, .control("f"), .character(" "): next = scroll + page
        case .home, .character("g"): next = 0
        case .end, .character("G"): next = limit
        default: return nil
        }
        return max(0, min(limit, next))
    }

    /// A list selection moved by a key (nil when the key does not move it), kept in 0..<count.
    func moved(_ selected: Int, by key: Key, count: Int, page: Int) -> Int? {
        let next: Int
        switch key {
        case .up, .character("k"): next = selected - 1
        case .down, .character("j"): next = selected + 1
        case .pageUp, .control("b"): next = selected - max(1, page)
        case .pageDown, .control("f"): next = selected + max(1, page)
        case .home: next = 0
        case .end, .character("G"): next = count - 1
        default: return nil
        }
        return max(0, min(max(0, count - 1), next))
    }

    // MARK: - The purchase sheet

    /// The offers the sheet offers for `product`: none (or the introductory offer, when
    /// eligible), then each promotional offer.
    func sheetOffers(_ product: Product) -> [SubscriptionOffer?] {
        [nil] + (product.subscription?.promotionalOffers ?? []).map { Optional($0) }
    }

    /// The most of a consumable one purchase may buy.
    static let maximumQuantity = 10

    private mutating func handleConfirm(_ key: Key, productID: String, quantity: Int, offer: Int) -> [Effect] {
        guard let product = product(productID) else {
            modal = nil
            return []
        }
        let offers = sheetOffers(product)
        switch key {
        case .enter, .character("y"), .character("b"):
            var flow = PurchaseFlow(productID: productID, hasDownloads: product.hasDownloads, quantity: quantity)
            flow.phase = .contacting
            flows[productID] = flow
            modal = .purchase(productID: productID)
            let chosen = offer < offers.count ? offers[offer]?.id : nil
            return [.purchase(productID: productID, quantity: quantity, offerID: chosen)]
        case .escape, .character("n"), .character("q"):
            modal = nil
        case .character("+"), .character("="), .right, .character("l"):
            guard product.type == .consumable else { break }
            modal = .confirm(productID: productID, quantity: min(Self.maximumQuantity, quantity + 1), offer: offer)
        case .character("-"), .left, .character("h"):
            guard product.type == .consumable else { break }
            modal = .confirm(productID: productID, quantity: max(1, quantity - 1), offer: offer)
        case .tab, .down, .character("j"):
            guard offers.count > 1 else { break }
            modal = .confirm(productID: productID, quantity: quantity, offer: (offer + 1) % offers.count)
        case .backTab, .up, .character("k"):
            guard offers.count > 1 else { break }
            modal = .confirm(productID: productID, quantity: quantity, offer: (offer + offers.count - 1) % offers.count)
        default: break
        }
        return []
    }

    // MARK: - Storefront & Language

    private mutating func handleStorefronts(_ key: Key, storefront: Int, locale: Int, column: Int) -> [Effect] {
        let storefronts = context?.storefronts ?? []
        let locales = context?.locales ?? []
        switch key {
        case .escape, .character("q"): modal = nil
        case .tab, .backTab, .left, .right, .character("h"), .character("l"):
            modal = .storefronts(storefront: storefront, locale: locale, column: column == 0 ? 1 : 0)
        case .up, .down, .character("k"), .character("j"), .pageUp, .pageDown, .home, .end:
            let count = column == 0 ? storefronts.count : locales.count
            let current = column == 0 ? storefront : locale
            guard count > 0, let next = moved(current, by: key, count: count, page: 10) else { break }
            if column == 0 {
                // A new storefront brings its own language when the catalog has it.
                let localeIndex = locales.firstIndex(of: storefronts[next].locale) ?? locale
                modal = .storefronts(storefront: next, locale: localeIndex, column: 0)
            } else {
                modal = .storefronts(storefront: storefront, locale: next, column: 1)
            }
        case .character(let c) where c.isUppercase && c.isASCII:
            // Type the first letter of a code to jump there (again for the next one).
            guard
                let next = (1...max(1, storefronts.count)).lazy
                    .map({ (storefront + $0) % max(1, storefronts.count) })
                    .first(where: { storefronts.indices.contains($0) && storefronts[$0].code.first == c })
            else { return [] }
            let localeIndex = locales.firstIndex(of: storefronts[next].locale) ?? locale
            modal = .storefronts(storefront: next, locale: localeIndex, column: 0)
        case .enter:
            modal = nil
            guard storefront < storefronts.count else { return [] }
            let code = storefronts[storefront].code
            let chosenLocale = locale < locales.count ? locales[locale] : storefronts[storefront].locale
            // Until its products arrive, the list is the old storefront's: nothing is bought from it.
            switchingTo = code
            show(strings("Switching to {}…", code))
            return [.setStorefront(code: code, locale: chosenLocale)]
        default: break
        }
        return []
    }

    // MARK: - Store Settings

    private mutating func handleSettings(_ key: Key, selected: Int) -> [Effect] {
        switch key {
        case .escape, .character("q"), .character("o"): modal = nil
        case .up, .character("k"), .down, .character("j"), .home, .end, .pageUp, .pageDown:
            if let next = moved(selected, by: key, count: settings.count, page: 5) { modal = .settings(selected: next) }
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

    // MARK: - My Purchases

    /// The consumables with a balance, for My Purchases → Balances.
    var balanceRows: [(productID: String, count: Int)] {
        purchases.balances.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The subscriptions the account has or had (active, failing billing, or ended), for My
    /// Purchases → Subscriptions, by product ID.
    var subscriptionRows: [String] {
        Set(purchases.activeUntil.keys).union(purchases.subscriptions.map(\.productID)).sorted()
    }

    /// The number of rows of each My Purchases tab.
    var purchaseTabCounts: [Int] { [purchases.transactions.count, balanceRows.count, subscriptionRows.count] }

    private mutating func handlePurchases(_ key: Key, tab: Int, selected: Int) -> [Effect] {
        let counts = purchaseTabCounts
        switch key {
        case .escape, .character("q"), .character("p"): modal = nil
        case .tab, .right, .character("l"): modal = .purchases(tab: (tab + 1) % 3, selected: 0)
        case .backTab, .left, .character("h"): modal = .purchases(tab: (tab + 2) % 3, selected: 0)
        case .character("c"):
            let rows = balanceRows
            guard tab == 1, selected < rows.count else { return [] }
            return [.consume(productID: rows[selected].productID, quantity: 1)]
        case .enter:
            guard tab == 0, selected < purchases.transactions.count else { return [] }
            document = nil
            let id = purchases.transactions[selected].transactionID
            modal = .document(scroll: 0, over: .purchases(tab: tab, selected: selected))
            return [.loadTransaction(transactionID: id)]
        default:
            if let next = moved(selected, by: key, count: counts[tab], page: max(1, height - 8)) {
                modal = .purchases(tab: tab, selected: next)
            }
        }
        return []
    }

    // MARK: - Event log

    private mutating func handleLog(_ key: Key, selected: Int, showsDetail: Bool) -> [Effect] {
        switch key {
        case .escape, .character("q"), .character("L"):
            modal = showsDetail ? .log(selected: selected) : nil
        case .enter:
            guard !log.isEmpty else { break }
            modal = .log(selected: selected, showsDetail: !showsDetail)
        default:
            if !showsDetail,
                let next = moved(selected, by: key, count: log.count, page: max(1, PageView.visibleRows(in: self) - 1))
            {
                modal = .log(selected: next)
            }
        }
        return []
    }
}
