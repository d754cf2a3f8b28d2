import StoreKitValues

/// Everything about one product in a window that scrolls: its facts and terms, then its price
/// in every storefront (the current one marked, estimates marked `≈`).
enum DetailsView {
    static func lines(_ details: DetailsFeature.State, _ state: State) -> [(String, CellStyle)] {
        let s = state.strings
        let productID = details.productID
        guard let product = state.product(productID) else { return [] }
        let width = PageView.contentWidth(state)
        var lines = ProductFacts.lines(product, state, width: width)
        lines.append(("", .plain))
        lines.append((s("Price in every storefront"), Theme.heading))
        guard let comparison = details.priceComparison, comparison.productID == productID else {
            lines.append((s("Loading…"), Theme.secondary))
            return lines
        }
        let rows = comparison.prices.map { price in
            [
                price.storefront.code == state.context?.storefront ? "●" : " ", price.storefront.code,
                price.storefront.name,
                price.storefront.currencyCode,
                (price.isEstimated ? ProductMetrics.estimateMark : "") + price.displayPrice,
            ]
        }
        let table = TableLayout(
            columns: [
                TableColumn(natural: 1, priority: 0),
                TableColumn(natural: 3, priority: 0),
                TableColumn(natural: rows.map { DisplayWidth.of($0[2]) }.max() ?? 0, minimum: 8, priority: 2),
                TableColumn(natural: 3, priority: 1),
                TableColumn(natural: rows.map { DisplayWidth.of($0[4]) }.max() ?? 0, priority: 0, alignment: .trailing),
            ], width: width, gap: 2)
        for (row, price) in zip(rows, comparison.prices) {
            var text = ""
            for placement in table.place(row) where placement.width > 0 {
                let pad = placement.x - DisplayWidth.of(text)
                text += String(repeating: " ", count: max(0, pad)) + placement.text
            }
            lines.append(
                (
                    text,
                    price.isEstimated
                        ? Theme.secondary : (price.storefront.code == state.context?.storefront ? Theme.price : .plain)
                ))
        }
        if comparison.prices.contains(where: \.isEstimated) {
            lines.append(("", .plain))
            lines += PageView.wrapped(
                s("≈ no price set for that storefront: the catalog's price, read in its currency"),
                Theme.secondary, width: width)
        }
        return lines
    }

    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        PageView.render(
            s("Details"), lines: lines(state.details, state), scroll: state.details.scroll,
            footer: "↑↓ PgUp PgDn · Esc",
            state: state, into: &screen)
    }
}
