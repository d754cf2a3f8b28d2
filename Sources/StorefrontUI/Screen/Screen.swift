/// An off-screen grid of cells that views render into and the terminal backend draws.
///
/// Each cell holds a whole grapheme cluster (a flag, an emoji with its skin tone, a letter with
/// its accents) and its width, measured once by `DisplayWidth`. Writing keeps wide characters
/// whole: a wide character takes its cell and a continuation
/// cell; overwriting either half of one blanks the other half; a wide character that does not
/// fit before the right edge (of the screen or of the clip width) becomes a blank instead of
/// half a glyph.
public struct Screen: Hashable, Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The cells, row by row.
    public private(set) var cells: [Cell]

    /// Creates a blank screen; negative sizes become zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The whole screen as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at a column and row; a blank cell outside the screen.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < width, y < height else { return .blank }
        return cells[y * width + x]
    }

    /// The screen as text, one string per row, continuation cells left out, trailing spaces kept.
    public var lines: [String] {
        (0..<height).map { line($0) }
    }

    /// One row as text (continuation cells left out).
    public func line(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var text = ""
        text.reserveCapacity(width)
        for x in 0..<width {
            let cell = cells[y * width + x]
            if !cell.isContinuation { text.append(cell.character) }
        }
        return text
    }

    /// Puts one cell at a column and row, keeping wide characters whole; ignored outside.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = y * width + x
        // Overwriting half of a wide character blanks the other half.
        if cells[i].isContinuation, x > 0 {
            cells[i - 1] = Cell(" ", style: cells[i - 1].style, width: 1)
        }
        if !cells[i].isContinuation, x + 1 < width, cells[i + 1].isContinuation {
            cells[i + 1] = Cell(" ", style: cells[i + 1].style, width: 1)
        }
        cells[i] = cell
    }

    /// Writes text on one row from column `x`, clipped to `maxWidth` columns and the screen.
    ///
    /// Control characters become spaces; zero-width clusters on their own are dropped.
    /// - Returns: the number of columns written, including blanks for a wide character cut
    ///   at the clip edge.
    @discardableResult
    public mutating func put<S: StringProtocol>(
        _ text: S, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil
    ) -> Int {
        guard y >= 0, y < height else { return 0 }
        let limit = min(width, maxWidth.map { x + max(0, $0) } ?? width)
        var column = x
        // Printable ASCII (most of a frame's text) is one cell a byte: no grapheme breaking.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            for byte in text.utf8 {
                if column >= limit { break }
                if column >= 0 { set(Cell(Character(Unicode.Scalar(byte)), style: style, width: 1), x: column, y: y) }
                column += 1
            }
            return max(0, column - x)
        }
        for var character in text {
            if column >= limit { break }
            if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
            {
                character = " "
            }
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if column + w > limit {
                // Not half a glyph: blanks up to the edge.
                while column < limit {
                    set(Cell(" ", style: style, width: 1), x: column, y: y)
                    column += 1
                }
                break
            }
            if column >= 0 {
                set(Cell(character, style: style, width: w), x: column, y: y)
                if w == 2 { set(Cell(" ", style: style, width: 0), x: column + 1, y: y) }
            } else if column + w > 0 {
                // A wide character cut by the left edge: its visible half is a blank.
                set(Cell(" ", style: style, width: 1), x: 0, y: y)
            }
            column += w
        }
        return max(0, column - x)
    }

    /// Fills a rectangle with one cell (clipped to the screen).
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { set(cell, x: x, y: y) }
        }
    }

    /// Changes the style of every cell in a rectangle, keeping the characters.
    public mutating func restyle(_ rect: Rect, _ change: (inout CellStyle) -> Void) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { change(&cells[y * width + x].style) }
        }
    }
}
