import StorefrontUI

/// Turns a `ScreenDiff` into drawing calls: what `Terminal.draw` sends for one frame.
enum DiffPainter {
    /// Draws `diff` on `surface`: an erase first when it is a full redraw, then every cell of
    /// every run at its own position (so a width disagreement with libc's `wcwidth` cannot
    /// drift the cursor), then one refresh.
    ///
    /// A wide cell's continuation is cleared (a blank in the cell's style) before the cell is
    /// drawn over it: where the terminal or ncurses draws the character narrower than the
    /// screen counts it (a flag ncurses knows as one column), the column it leaves shows
    /// nothing of the frame before.
    /// - Returns: the number of cells drawn, continuations cleared included.
    static func paint(_ diff: ScreenDiff, on surface: inout some CellSurface) -> Int {
        if diff.isFullRedraw { surface.erase() }
        var drawn = 0
        for run in diff.runs {
            for (offset, cell) in run.cells.enumerated() where !cell.isContinuation {
                let x = run.x + offset
                if cell.width > 1 {
                    let blank = Cell(" ", style: cell.style)
                    for column in x + 1..<x + cell.width {
                        surface.put(blank, x: column, y: run.y)
                        drawn += 1
                    }
                }
                surface.put(cell, x: x, y: run.y)
                drawn += 1
            }
        }
        surface.refresh()
        return drawn
    }
}
