/// Text attributes of a cell: bold, dim, reverse video and underline.
public struct CellAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    /// Creates attributes from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Heavier text.
    public static let bold = CellAttributes(rawValue: 1 << 0)
    /// Fainter text, for secondary information.
    public static let dim = CellAttributes(rawValue: 1 << 1)
    /// Swapped foreground and background: the selection, on monochrome terminals too.
    public static let reverse = CellAttributes(rawValue: 1 << 2)
    /// Underlined text.
    public static let underline = CellAttributes(rawValue: 1 << 3)
}
