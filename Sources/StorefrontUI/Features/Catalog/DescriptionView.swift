import StoreKitValues

/// The selected product beside or below the list: its terms, identifier and description,
/// wrapped; when they do not fit, the last row says where the rest is (`d`).
enum DescriptionView {
    static func render(_ state: State, in rect: Rect, into screen: inout Screen) {
        let s = state.strings
        let inner = screen.box(
            rect, border: .rounded, style: Theme.border, title: s("Description"), titleStyle: Theme.title)
        guard !inner.isEmpty, let product = state.catalog.selectedProduct else { return }
        let width = inner.width - 2
        var lines = ProductFacts.lines(product, state, width: width)
        if lines.count > inner.height {
            lines = Array(lines.prefix(max(0, inner.height - 1)))
            lines.append(
                (TextLayout.truncate("↓ " + s("d: all details and prices in every storefront"), to: width), Theme.key))
        }
        for (i, (text, style)) in lines.enumerated() {
            screen.put(text, x: inner.x + 1, y: inner.y + i, style: style, maxWidth: width)
        }
    }
}
