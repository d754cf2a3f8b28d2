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
        renderLines { lines.append($0) }
        return lines
    }

    /// `render()`'s lines handed to `emit` one at a time, so a long table is written as it is
    /// laid out instead of being held whole.
    func renderLines(_ emit: (String) -> Void) {
        render(bytes: { emit(String(decoding: $0, as: UTF8.self)) })
    }

    /// `render()`'s lines as UTF-8 (no newline), handed to `emit` one at a time from one
    /// buffer reused for every line: valid only during the call.
    ///
    /// Each cell is measured once. A line of printable ASCII cells (nearly every line) is laid
    /// out as bytes, one column a byte; any other line goes through `TextLayout`, as it always
    /// did, so wide characters and grapheme clusters still line up.
    func render(bytes emit: (UnsafeRawBufferPointer) -> Void) {
        let cells = rows.map { row in
            columns.indices.map { index -> Cell in
                let cell = Cell(index < row.count ? row[index] : "")
                guard let maximum = columns[index].maximumWidth, cell.width > maximum else { return cell }
                return Cell(TextLayout.truncate(cell.text, to: maximum))
            }
        }
        let headers = columns.map { Cell($0.header) }
        let widths = columns.indices.map { index in
            max(headers[index].width, cells.map { $0[index].width }.max() ?? 0)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(widths.reduce(0, +) + 2 * widths.count)
        func line(_ values: [Cell]) {
            guard values.allSatisfy(\.isPlainASCII) else {
                let padded = columns.indices.map { index -> String in
                    switch columns[index].alignment {
                    case .left: TextLayout.pad(values[index].text, to: widths[index])
                    case .right: TextLayout.pad(values[index].text, to: widths[index], alignRight: true)
                    }
                }
                var text = padded.joined(separator: "  ")
                while text.last == " " { text.removeLast() }
                text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
                return
            }
            bytes.removeAll(keepingCapacity: true)
            for index in columns.indices {
                if index > 0 {
                    bytes.append(0x20)
                    bytes.append(0x20)
                }
                let fill = widths[index] - values[index].width
                if columns[index].alignment == .right { bytes.append(contentsOf: repeatElement(0x20, count: fill)) }
                bytes.append(contentsOf: values[index].text.utf8)
                if columns[index].alignment == .left { bytes.append(contentsOf: repeatElement(0x20, count: fill)) }
            }
            while bytes.last == 0x20 { bytes.removeLast() }
            bytes.withUnsafeBytes(emit)
        }
        line(headers)
        var rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")
        rule.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
        for row in cells { line(row) }
    }

    /// A cell's text with its width in columns, measured once.
    private struct Cell {
        let text: String
        let width: Int
        /// Whether it is printable ASCII only: one column a byte.
        let isPlainASCII: Bool

        init(_ text: String) {
            var contiguous = text
            let plain = contiguous.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
            self.text = contiguous
            isPlainASCII = plain
            width = plain ? contiguous.utf8.count : DisplayWidth.of(contiguous)
        }
    }
}
