/// One cell of the terminal grid: a character with its style.
///
/// A wide character (CJK, most emoji) occupies two cells: the first holds the character, the
/// second is a continuation cell that the backend never draws.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown in this cell (a space when blank).
    public var character: Character
    /// Colors and attributes.
    public var style: CellStyle
    /// Whether this is the right half of a wide character in the cell to its left.
    public var isContinuation: Bool

    /// Creates a cell holding `character`.
    public init(_ character: Character = " ", style: CellStyle = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    /// An empty cell in the plain style.
    public static let blank = Cell()

    /// How many columns the character takes (0 for a continuation cell).
    public var width: Int { isContinuation ? 0 : DisplayWidth.of(character) }
}
