import StorefrontUI

/// What a frame is drawn on: ncurses' screen (`CursesSurface`) in the storefront, a recorder
/// in the tests, so that what `Terminal` sends for a `ScreenDiff` can be checked as data.
protocol CellSurface {
    /// Clears the whole screen, before a full redraw.
    mutating func erase()
    /// Draws `cell` (never a continuation cell) with its left edge at column `x` of row `y`.
    mutating func put(_ cell: Cell, x: Int, y: Int)
    /// Shows what was drawn since the last refresh: the end of a frame.
    mutating func refresh()
}
