import StoreCore

/// The product list: group headings, then one row per product with its localized name,
/// type, localized price and status.
enum ProductListView {
    static func render(_ state: State, in rect: Rect, into screen: inout Screen) {
        let s = state.strings
        var title = s("Storefront")
        if let context = state.context { title += " · \(context.storefront)" }
        if let products = state.products {
            let shown = state.listing.rows.filter { if case .product = $0 { true } else { false } }.count
            title += state.filter.isEmpty ? " (\(products.count))" : " (\(shown)/\(products.count))"
        }
        let inner = screen.box(rect, border: .rounded, style: state.modal == nil ? Theme.focusedBorder : Theme.border,
                               title: title, titleStyle: Theme.title)
        guard !inner.isEmpty else { return }
        guard let products = state.products else {
            screen.put(s("Loading products…"), x: inner.x + 1, y: inner.y, style: Theme.secondary, maxWidth: inner.width - 1)
            return
        }
        if state.listing.rows.isEmpty {
            let text = state.filter.isEmpty ? s("No products") : s("No products match “{}”", state.filter)
            screen.put(text, x: inner.x + 1, y: inner.y, style: Theme.secondary, maxWidth: inner.width - 1)
            return
        }
        let columns = Columns(width: inner.width)
        let rows = state.listing.rows
        let end = min(rows.count, state.scrollTop + inner.height)
        for (offset, rowIndex) in (state.scrollTop..<max(state.scrollTop, end)).enumerated() {
            let y = inner.y + offset
            switch rows[rowIndex] {
            case .header(let heading):
                screen.put(heading, x: inner.x + 1, y: y, style: Theme.heading, maxWidth: inner.width - 1)
            case .product(let index):
                guard index < products.count else { continue }
                let product = products[index]
                let selected = rowIndex == state.selectedRow
                drawRow(product, state: state, columns: columns, x: inner.x, y: y, width: inner.width, selected: selected,
                        into: &screen)
            }
        }
        // A scroll position marker on the right border when the list does not fit.
        if rows.count > inner.height, inner.height > 0 {
            let maxTop = rows.count - inner.height
            let y = inner.y + (inner.height - 1) * min(state.scrollTop, maxTop) / max(1, maxTop)
            screen.set(Cell("┃", style: Theme.focusedBorder), x: rect.maxX - 1, y: y)
        }
    }

    /// Column widths for an inner width: name takes what the others leave.
    struct Columns {
        let type: Int, price: Int, status: Int, name: Int
        init(width: Int) {
            status = width >= 90 ? 24 : (width >= 70 ? 23 : (width >= 60 ? 21 : 16))
            price = width >= 90 ? 11 : 9
            type = width >= 90 ? 16 : (width >= 66 ? 14 : 0)
            // The marker takes 3 cells; a gap of 1 follows the name and the type, 2 the price.
            name = max(4, width - 3 - type - price - status - (type > 0 ? 4 : 3))
        }
    }

    private static func drawRow(
        _ product: Product, state: State, columns: Columns, x: Int, y: Int, width: Int, selected: Bool,
        into screen: inout Screen
    ) {
        let s = state.strings
        let base = selected ? Theme.selected : CellStyle.plain
        if selected { screen.fill(Rect(x: x, y: y, width: width, height: 1), with: Cell(" ", style: base)) }
        var column = x + 1
        screen.put(selected ? "▸" : " ", x: column, y: y, style: base.with(.bold))
        column += 2
        screen.put(TextLayout.truncate(product.displayName, to: columns.name), x: column, y: y, style: selected ? base.with(.bold) : base)
        column += columns.name + 1
        if columns.type > 0 {
            screen.put(TextLayout.truncate(s.typeName(product.type), to: columns.type), x: column, y: y,
                       style: selected ? base : Theme.secondary)
            column += columns.type + 1
        }
        let price = TextLayout.pad(product.displayPrice, to: columns.price, alignRight: true)
        screen.put(price, x: column, y: y, style: selected ? base : Theme.price)
        column += columns.price + 2
        if let status = ProductStatus.of(product, in: state) {
            let style = selected ? base.with(.bold) : status.style
            screen.put(TextLayout.truncate(status.text, to: columns.status), x: column, y: y, style: style)
        }
    }
}
