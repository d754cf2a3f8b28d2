/// A rectangle of cells: origin at the top left, sizes in columns and rows.
public struct Rect: Hashable, Sendable {
    /// Left column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a rectangle; negative sizes become zero.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The column just past the right edge.
    public var maxX: Int { x + width }
    /// The row just past the bottom edge.
    public var maxY: Int { y + height }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The rectangle shrunk by `dx` columns on each side and `dy` rows on top and bottom.
    public func inset(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The rectangle's top `rows` rows and the rest below them.
    public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let top = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: top),
            Rect(x: x, y: y + top, width: width, height: height - top)
        )
    }

    /// The rectangle's bottom `rows` rows and the rest above them.
    public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let bottom = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: height - bottom),
            Rect(x: x, y: maxY - bottom, width: width, height: bottom)
        )
    }

    /// The rectangle's left `columns` columns and the rest to their right.
    public func splitLeft(_ columns: Int) -> (left: Rect, rest: Rect) {
        let left = min(max(0, columns), width)
        return (
            Rect(x: x, y: y, width: left, height: height),
            Rect(x: x + left, y: y, width: width - left, height: height)
        )
    }

    /// A rectangle of the given size centered in this one (clamped to fit).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width)
        let ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }

    /// The overlap of two rectangles (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let nx = max(x, other.x)
        let ny = max(y, other.y)
        return Rect(x: nx, y: ny, width: min(maxX, other.maxX) - nx, height: min(maxY, other.maxY) - ny)
    }
}
