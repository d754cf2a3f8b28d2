/// The storefront's styles in one place. Colors carry meaning only together with text, so
/// the screen reads the same on a monochrome terminal or with `NO_COLOR`.
enum Theme {
    static let bar = CellStyle(attributes: .reverse)
    static let barTitle = CellStyle(attributes: [.reverse, .bold])
    static let border = CellStyle(foreground: .blue)
    static let focusedBorder = CellStyle(foreground: .cyan, attributes: .bold)
    static let title = CellStyle(attributes: .bold)
    static let heading = CellStyle(foreground: .magenta, attributes: .bold)
    static let selected = CellStyle(attributes: .reverse)
    static let secondary = CellStyle(attributes: .dim)
    static let price = CellStyle(foreground: .yellow)
    static let owned = CellStyle(foreground: .green)
    static let waiting = CellStyle(foreground: .yellow)
    static let busy = CellStyle(foreground: .cyan)
    static let error = CellStyle(foreground: .red, attributes: .bold)
    static let success = CellStyle(foreground: .green, attributes: .bold)
    static let key = CellStyle(foreground: .cyan, attributes: .bold)
    static let bar100 = CellStyle(foreground: .green)
    static let barTrack = CellStyle(attributes: .dim)
}
