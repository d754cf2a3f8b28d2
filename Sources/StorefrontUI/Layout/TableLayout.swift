/// Column widths for a table from its content and the room there is, shared by every list
/// the storefront draws (products, transactions, purchases, downloads, storefronts, and the
/// server's views).
///
/// Widths: each column starts at its minimum; columns get their natural width in priority
/// order; the flexible column takes what is left. When even the minimums do not fit, optional
/// columns are dropped, least important first.
///
/// Rows: a cell wider than its column borrows the row's free cells — the cells after it move
/// right, packed — so a name, ID or price is cut only when its row has no free cell left, and
/// then the least important cells give way first (`place(_:)`).
public struct TableLayout: Hashable, Sendable {
    /// The columns as declared.
    public let columns: [TableColumn]
    /// Each column's width; 0 for a dropped column.
    public let widths: [Int]
    /// Each column's first cell, from the table's left edge.
    public let offsets: [Int]
    /// The blank cells between two columns.
    public let gap: Int
    /// The table's width.
    public let width: Int

    /// Lays out `columns` in `width` cells.
    public init(columns: [TableColumn], width: Int, gap: Int = 2) {
        self.columns = columns
        self.gap = gap
        self.width = max(0, width)
        var shown = columns.map { _ in true }
        var widths = columns.map(\.minimum)
        func used() -> Int {
            let count = shown.filter { $0 }.count
            return zip(widths, shown).reduce(0) { $0 + ($1.1 ? $1.0 : 0) } + gap * max(0, count - 1)
        }
        // Too narrow for every minimum: drop optional columns, least important first.
        let byImportance = columns.indices.sorted { (columns[$0].priority, $0) < (columns[$1].priority, $1) }
        for index in byImportance.reversed() where used() > self.width && columns[index].isOptional {
            shown[index] = false
        }
        // Still too narrow: the least important columns shrink.
        for index in byImportance.reversed() where used() > self.width && shown[index] {
            widths[index] = max(0, widths[index] - (used() - self.width))
        }
        for index in byImportance where shown[index] {
            let room = self.width - used()
            guard room > 0 else { break }
            widths[index] += min(room, columns[index].natural - widths[index])
        }
        if let flexible = columns.indices.first(where: { columns[$0].isFlexible && shown[$0] }) {
            widths[flexible] += max(0, self.width - used())
        }
        for index in columns.indices where !shown[index] { widths[index] = 0 }
        self.widths = widths
        var offsets: [Int] = []
        var x = 0
        for index in columns.indices {
            offsets.append(x)
            if shown[index] { x += widths[index] + gap }
        }
        self.offsets = offsets
    }

    /// The width all shown columns and their gaps take (at most `width`).
    public var usedWidth: Int {
        let shown = widths.indices.filter { widths[$0] > 0 }
        guard let last = shown.last else { return 0 }
        return offsets[last] + widths[last]
    }

    /// Where one row's cell goes: its first cell from the table's left edge, its width, and its
    /// text fitted to that width (cut with `…` only when the row has no room left).
    public struct Placement: Hashable, Sendable {
        /// The first cell, from the table's left edge.
        public let x: Int
        /// The cells it may use.
        public let width: Int
        /// The text to draw there (its display width is at most `width`).
        public let text: String
        /// Whether `text` was cut.
        public let isCut: Bool
    }

    /// Places one row's texts, one per column (an empty text leaves its column blank).
    ///
    /// When every text fits its column, each sits in its column. Otherwise the row is packed
    /// from the first text that does not fit: later cells move right as far as needed. If the
    /// packed row is still too wide, the least important texts are cut first, to nothing, and
    /// only then a more important one.
    public func place(_ texts: [String]) -> [Placement] {
        let needs = texts.map { DisplayWidth.of($0) }
        return place(texts, needs: needs)
    }

    /// `place(_:)` with the texts' display widths already measured.
    public func place(_ texts: [String], needs measured: [Int]) -> [Placement] {
        let shown = columns.indices.filter { widths[$0] > 0 && $0 < texts.count }
        var needs = columns.indices.map { $0 < measured.count ? measured[$0] : 0 }
        let fits = shown.allSatisfy { needs[$0] <= widths[$0] }
        var result = columns.indices.map { Placement(x: offsets[$0], width: 0, text: "", isCut: false) }
        if fits {
            for index in shown {
                let w = widths[index]
                let x = columns[index].alignment == .trailing ? offsets[index] + w - needs[index] : offsets[index]
                result[index] = Placement(x: x, width: needs[index], text: texts[index], isCut: false)
            }
            return result
        }
        // Cells move right of their column only as far as an earlier, wider cell pushes them,
        // never left; the row's end decides what must give way.
        func positions() -> (xs: [Int], end: Int) {
            var xs = columns.indices.map { offsets[$0] }
            var cursor = 0
            var end = 0
            for index in shown where needs[index] > 0 {
                let standard =
                    columns[index].alignment == .trailing && needs[index] <= widths[index]
                    ? offsets[index] + widths[index] - needs[index] : offsets[index]
                xs[index] = max(cursor, standard)
                end = xs[index] + needs[index]
                cursor = end + gap
            }
            return (xs, end)
        }
        var cut = Set<Int>()
        let byImportance = shown.sorted { (columns[$0].priority, $0) < (columns[$1].priority, $1) }
        // First down to each column's minimum, least important first; then, on a table too
        // narrow even for that, below it.
        for respectsMinimum in [true, false] {
            for index in byImportance.reversed() {
                let over = positions().end - width
                guard over > 0 else { break }
                guard needs[index] > 0 else { continue }
                let floor = respectsMinimum ? min(needs[index], columns[index].minimum) : 0
                let next = max(floor, needs[index] - over)
                guard next < needs[index] else { continue }
                cut.insert(index)
                needs[index] = next
            }
        }
        let (xs, _) = positions()
        for index in shown where needs[index] > 0 {
            let text = cut.contains(index) ? TextLayout.truncate(texts[index], to: needs[index]) : texts[index]
            result[index] = Placement(x: xs[index], width: needs[index], text: text, isCut: cut.contains(index))
        }
        return result
    }
}
