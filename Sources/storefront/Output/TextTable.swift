import StorefrontUI

/// A plain-text table whose columns line up in a terminal, wide characters included.
struct TextTable {
    /// How a column's cells sit in their width.
    enum Alignment: Sendable {
        case left, right
    }

    /// One column: its header and alignment, and an optional maximum width (longer cells are cut with `…`).
    struct Column: Sendable {
        let header: String
        var alignment: Alignment = .left
        var maximumWidth: Int? = nil
    }

    let columns: [Column]
    let rows: [[String]]

    /// The table as lines: a header, a rule of `─`, then one line per row; no trailing spaces.
    func render() -> [String] {
        var lines: [String] = []
        render { lines.append($0) }
        return lines
    }

    /// `render()`'s lines handed to `emit` one at a time, so a long table is written as it is
    /// laid out instead of being held whole.
    func render(_ emit: (String) -> Void) {
        let cells = rows.map { row in
            columns.indices.map { index -> String in
                let text = index < row.count ? row[index] : ""
                guard let maximum = columns[index].maximumWidth else { return text }
                return TextLayout.truncate(text, to: maximum)
            }
        }
        let widths = columns.indices.map { index in
            max(DisplayWidth.of(columns[index].header), cells.map { DisplayWidth.of($0[index]) }.max() ?? 0)
        }
        func line(_ values: [String]) -> String {
            let padded = columns.indices.map { index -> String in
                switch columns[index].alignment {
                case .left: TextLayout.pad(values[index], to: widths[index])
                case .right: TextLayout.pad(values[index], to: widths[index], alignRight: true)
                }
            }
            var text = padded.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        emit(line(columns.map(\.header)))
        emit(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "))
        for row in cells { emit(line(row)) }
    }
}
