/// One column of a `TableLayout`: how wide its content wants to be, how narrow it may get,
/// and how soon it gets room.
public struct TableColumn: Hashable, Sendable {
    /// Where text sits in a column wider than it.
    public enum Alignment: Hashable, Sendable { case leading, trailing }

    /// The width of the column's widest content.
    public var natural: Int
    /// The narrowest the column gets before it is dropped (optional columns) or cut.
    public var minimum: Int
    /// Who gets room first: 0 before 1. The least important column gives way first, and a
    /// row's cells are cut in the same order.
    public var priority: Int
    /// Where the text sits.
    public var alignment: Alignment
    /// Whether the column may be left out when the table is too narrow for every minimum.
    public var isOptional: Bool
    /// Whether the column takes the room left over once every column has its natural width.
    public var isFlexible: Bool

    /// Declares a column.
    /// - Parameters:
    ///   - natural: the widest content's width.
    ///   - minimum: the narrowest width (at most `natural` is used); nil means `natural`: never cut.
    ///   - priority: 0 gets room first.
    ///   - alignment: leading (text) or trailing (numbers, prices).
    ///   - optional: may be dropped on a narrow table.
    ///   - flexible: takes the room left over.
    public init(
        natural: Int, minimum: Int? = nil, priority: Int, alignment: Alignment = .leading, optional: Bool = false,
        flexible: Bool = false
    ) {
        self.natural = max(0, natural)
        self.minimum = max(0, min(minimum ?? natural, natural))
        self.priority = priority
        self.alignment = alignment
        self.isOptional = optional
        self.isFlexible = flexible
    }
}
