/// The characters of a box's border.
public struct BorderStyle: Hashable, Sendable {
    public let topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character
    public let horizontal: Character, vertical: Character

    /// Light lines with square corners: `┌─┐`.
    public static let single = BorderStyle(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│")
    /// Light lines with rounded corners: `╭─╮`.
    public static let rounded = BorderStyle(
        topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─", vertical: "│")
    /// Heavy lines: `┏━┓`.
    public static let heavy = BorderStyle(
        topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛", horizontal: "━", vertical: "┃")
}

extension Screen {
    /// Draws a border around `rect` with an optional title in the top edge.
    /// - Returns: the inside of the box.
    @discardableResult
    public mutating func box(
        _ rect: Rect, border: BorderStyle = .single, style: CellStyle = .plain,
        title: String? = nil, titleStyle: CellStyle? = nil
    ) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let right = rect.maxX - 1
        let bottom = rect.maxY - 1
        // Each edge's cell made (and measured) once.
        let horizontal = Cell(border.horizontal, style: style)
        let vertical = Cell(border.vertical, style: style)
        for x in rect.x + 1..<right {
            set(horizontal, x: x, y: rect.y)
            set(horizontal, x: x, y: bottom)
        }
        for y in rect.y + 1..<bottom {
            set(vertical, x: rect.x, y: y)
            set(vertical, x: right, y: y)
        }
        set(Cell(border.topLeft, style: style), x: rect.x, y: rect.y)
        set(Cell(border.topRight, style: style), x: right, y: rect.y)
        set(Cell(border.bottomLeft, style: style), x: rect.x, y: bottom)
        set(Cell(border.bottomRight, style: style), x: right, y: bottom)
        if let title, !title.isEmpty, rect.width > 4 {
            put(" " + title + " ", x: rect.x + 1, y: rect.y, style: titleStyle ?? style, maxWidth: rect.width - 2)
        }
        return rect.inset(dx: 1, dy: 1)
    }

    /// Draws a horizontal line across `width` columns from `x`.
    public mutating func horizontalLine(
        x: Int, y: Int, width: Int, character: Character = "─", style: CellStyle = .plain
    ) {
        let cell = Cell(character, style: style)
        for column in x..<x + max(0, width) { set(cell, x: column, y: y) }
    }
}
