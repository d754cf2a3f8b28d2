import Foundation
import StoreKitValues

/// The product list: group headings, then one row per product with its localized name, type,
/// price (per period for subscriptions) and status, in columns sized by `TableLayout`.
enum ProductListView {
    /// The cells before the table on each row: a space, the selection marker and a space.
    static let marker = 3

    static func render(_ state: State, in rect: Rect, into screen: inout Screen) {
        let s = state.strings
        let catalog = state.catalog
        var title = s("Storefront")
        if let context = state.context { title += " · \(context.storefront)" }
        if let switching = state.storefronts.switchingTo { title += " → \(switching)…" }
        if let products = catalog.products {
            title +=
                catalog.filter.isEmpty ? " (\(products.count))" : " (\(catalog.listing.productCount)/\(products.count))"
        }
        if catalog.sort != .catalog { title += " · " + s("Sorted by {}", s(catalog.sortLabel)) }
        let inner = screen.box(
            rect, border: .rounded, style: state.modal == nil ? Theme.focusedBorder : Theme.border,
            title: title, titleStyle: Theme.title)
        guard !inner.isEmpty else { return }
        guard let products = catalog.products else {
            screen.put(
                s("Loading products…"), x: inner.x + 1, y: inner.y, style: Theme.secondary, maxWidth: inner.width - 1)
            return
        }
        if catalog.listing.rows.isEmpty {
            let text = catalog.filter.isEmpty ? s("No products") : s("No products match “{}”", catalog.filter)
            for (i, line) in TextLayout.wrap(text, width: max(1, inner.width - 2)).prefix(inner.height).enumerated() {
                screen.put(line, x: inner.x + 1, y: inner.y + i, style: Theme.secondary)
            }
            return
        }
        let table = TableLayout(columns: columns(state, catalog), width: max(0, inner.width - marker - 1))
        let rows = catalog.listing.rows
        let end = min(rows.count, catalog.scrollTop + inner.height)
        // A switch under way: the old storefront's prices, dimmed, until the new ones arrive.
        let stale = state.storefronts.switchingTo != nil
        for (offset, rowIndex) in (catalog.scrollTop..<max(catalog.scrollTop, end)).enumerated() {
            let y = inner.y + offset
            switch rows[rowIndex] {
            case .header(let heading):
                let text = TextLayout.truncate(heading, to: max(0, inner.width - 2))
                screen.put(text, x: inner.x + 1, y: y, style: Theme.heading)
            case .product(let index):
                guard index < products.count else { continue }
                drawRow(
                    index, products[index], state: state, table: table, x: inner.x, y: y, width: inner.width,
                    selected: rowIndex == catalog.selectedRow, stale: stale, into: &screen)
            }
        }
        // A scroll position marker on the right border when the list does not fit.
        if rows.count > inner.height, inner.height > 0 {
            let maxTop = rows.count - inner.height
            let y = inner.y + (inner.height - 1) * min(catalog.scrollTop, maxTop) / max(1, maxTop)
            screen.set(Cell("┃", style: Theme.focusedBorder), x: rect.maxX - 1, y: y)
        }
    }

    /// The columns: name and price first, then status; the type gives way first.
    static func columns(_ state: State, _ catalog: CatalogFeature.State) -> [TableColumn] {
        [
            TableColumn(natural: catalog.metrics.widestName, minimum: 12, priority: 0),
            TableColumn(natural: catalog.metrics.widestType, minimum: 0, priority: 3, optional: true),
            TableColumn(natural: catalog.metrics.widestPrice, priority: 1, alignment: .trailing),
            TableColumn(natural: widestStatus(state, catalog), minimum: 0, priority: 2, flexible: true),
        ]
    }

    /// The width the list's rows want: the marker, every column at its natural width, a margin.
    static func naturalWidth(_ state: State, _ catalog: CatalogFeature.State) -> Int {
        let columns = columns(state, catalog)
        return marker + columns.reduce(0) { $0 + $1.natural } + 2 * (columns.count - 1) + 1
    }

    /// The widest status any product has now, found from what the account holds (a product
    /// with nothing to say has no status), not by asking every product.
    static func widestStatus(_ state: State, _ catalog: CatalogFeature.State) -> Int {
        var ids = Set(state.purchases.owned)
        ids.formUnion(state.purchases.balances.keys)
        ids.formUnion(state.purchases.activeUntil.keys)
        ids.formUnion(state.purchases.subscriptions.map(\.productID))
        ids.formUnion(state.purchases.pending.map(\.productID))
        ids.formUnion(state.purchases.transactions.lazy.filter { $0.revocationDate != nil }.map(\.productID))
        ids.formUnion(state.downloads.items.map(\.productID))
        ids.formUnion(state.buySheet.flows.keys)
        var widest = 0
        for id in ids {
            guard let product = catalog.product(id), let status = ProductStatus.of(product, in: state) else { continue }
            widest = max(widest, DisplayWidth.of(status.text))
        }
        return widest
    }

    private static func drawRow(
        _ index: Int, _ product: Product, state: State, table: TableLayout, x: Int, y: Int, width: Int, selected: Bool,
        stale: Bool, into screen: inout Screen
    ) {
        let s = state.strings
        let base = selected ? Theme.selected : CellStyle.plain
        if selected { screen.fill(Rect(x: x, y: y, width: width, height: 1), with: Cell(" ", style: base)) }
        screen.put(selected ? "▸" : " ", x: x + 1, y: y, style: base.with(.bold))
        let status = ProductStatus.of(product, in: state)
        let name = State.shownName(product)
        let price =
            index < state.catalog.metrics.prices.count ? state.catalog.metrics.prices[index] : product.displayPrice
        let texts = [name, s.typeName(product.type), price, status?.text ?? ""]
        let needs = [
            state.catalog.metrics.nameWidths.indices.contains(index)
                ? state.catalog.metrics.nameWidths[index] : DisplayWidth.of(name),
            DisplayWidth.of(texts[1]),
            state.catalog.metrics.priceWidths.indices.contains(index)
                ? state.catalog.metrics.priceWidths[index] : DisplayWidth.of(price),
            DisplayWidth.of(texts[3]),
        ]
        let placed = table.place(texts, needs: needs)
        let left = x + marker
        let estimated = state.context?.estimatedPrices.contains(product.id) == true
        let priceStyle = selected ? base : (stale || estimated ? Theme.secondary : Theme.price)
        let styles: [CellStyle] = [
            selected ? base.with(.bold) : (stale ? Theme.secondary : base),
            selected ? base : Theme.secondary,
            priceStyle,
            selected ? base.with(.bold) : (status?.style ?? base),
        ]
        for (column, placement) in placed.enumerated() where placement.width > 0 {
            screen.put(placement.text, x: left + placement.x, y: y, style: styles[column], maxWidth: placement.width)
        }
        // The filter's words, highlighted where they occur in the name.
        let words = state.catalog.filterWords
        if !words.isEmpty, placed[0].width > 0 {
            for range in Highlight.ranges(of: words, in: placed[0].text) {
                screen.restyle(Rect(x: left + placed[0].x + range.lowerBound, y: y, width: range.count, height: 1)) {
                    $0.attributes.insert(.underline)
                    $0.attributes.insert(.bold)
                    if !selected { $0.foreground = .yellow }
                }
            }
        }
    }
}
