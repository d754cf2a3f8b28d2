import StorefrontUI

/// Turns a `ScreenDiff` into drawing calls: what `Terminal.draw` sends for one frame.
enum DiffPainter {
    /// Draws `diff` on `surface`: an erase first when it is a full redraw, then every cell of
    /// every run at its own position (so a width disagreement with libc's `wcwidth` cannot
    /// drift the cursor), skipping continuation cells (the wide character to their left
    /// covers them), then one refresh.
    /// - Returns: the number of cells drawn.
    static func paint(_ diff: ScreenDiff, on surface: inout some CellSurface) -> Int {
        if diff.isFullRedraw { surface.erase() }
        var drawn = 0
        for run in diff.runs {
            for (offset, cell) in run.cells.enumerated() where !cell.isContinuation {
                surface.put(cell, x: run.x + offset, y: run.y)
                drawn += 1
            }
        }
        surface.refresh()
        return drawn
    }
}
