/// How a cell looks: foreground and background color plus attributes.
public struct CellStyle: Hashable, Sendable {
    /// The color of the character.
    public var foreground: TerminalColor
    /// The color behind the character.
    public var background: TerminalColor
    /// Bold, dim, reverse, underline.
    public var attributes: CellAttributes

    /// Creates a style; every part defaults to the terminal's plain text.
    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        attributes: CellAttributes = []
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's plain text.
    public static let plain = CellStyle()

    /// This style with `attributes` added.
    public func with(_ attributes: CellAttributes) -> CellStyle {
        var copy = self
        copy.attributes.formUnion(attributes)
        return copy
    }

    /// This style with another foreground color.
    public func foreground(_ color: TerminalColor) -> CellStyle {
        var copy = self
        copy.foreground = color
        return copy
    }
}
