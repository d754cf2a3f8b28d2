/// One cell of the terminal grid: a grapheme cluster, whole, with its style and width.
///
/// A wide character (CJK, most emoji, a flag) occupies two cells: the first holds the
/// character, the second is a continuation cell that the backend never draws as text. The
/// width is measured once, with `DisplayWidth`, when the cell is made.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown in this cell, every code point of it (a space when blank).
    public private(set) var character: Character
    /// Colors and attributes.
    public var style: CellStyle
    /// The columns the character takes, 0 in a continuation cell (a byte: a cell stays 24 bytes).
    private let columns: UInt8

    /// Creates a cell holding `character`, measured with `DisplayWidth` (1 or 2 columns; a
    /// zero-width cluster alone still takes its cell).
    public init(_ character: Character = " ", style: CellStyle = .plain, isContinuation: Bool = false) {
        self.init(character, style: style, width: isContinuation ? 0 : max(1, DisplayWidth.of(character)))
    }

    /// Creates a cell whose width the caller measured already (`Screen.put`): 0 makes a
    /// continuation cell; anything else is 1 or 2 columns.
    init(_ character: Character, style: CellStyle, width: Int) {
        self.character = character
        self.style = style
        columns = width == 0 ? 0 : (width >= 2 ? 2 : 1)
    }

    /// An empty cell in the plain style.
    public static let blank = Cell()

    /// How many columns the character takes: 1, 2 for a wide one, 0 for a continuation cell.
    public var width: Int { Int(columns) }

    /// Whether this is the right half of a wide character in the cell to its left.
    public var isContinuation: Bool { columns == 0 }
}
