/// The cells that changed between two frames, as runs on a row: what the terminal backend
/// draws, so that a frame costs only its changes.
public struct ScreenDiff: Hashable, Sendable {
    /// Consecutive cells on one row to draw from column `x`.
    public struct Run: Hashable, Sendable {
        /// The row.
        public let y: Int
        /// The first column.
        public let x: Int
        /// The cells, continuation cells included (the backend skips them).
        public let cells: [Cell]
    }

    /// The runs to draw, top to bottom, left to right.
    public let runs: [Run]
    /// Whether the whole screen must be cleared first (the first frame, or a new size).
    public let isFullRedraw: Bool

    /// The number of cells the runs hold.
    public var cellCount: Int { runs.reduce(0) { $0 + $1.cells.count } }

    /// Runs separated by at most this many unchanged cells are merged: one cursor move costs
    /// about as many bytes as redrawing a few cells.
    public static let mergeGap = 3

    /// Computes what to draw to turn `old` into `new`.
    ///
    /// A run never starts on a continuation cell or ends between the halves of a wide
    /// character, so the terminal always receives whole glyphs.
    /// - Parameters:
    ///   - old: the frame on the terminal now; nil, or a different size, redraws everything.
    ///   - new: the frame to show.
    public init(from old: Screen?, to new: Screen) {
        guard let old, old.width == new.width, old.height == new.height else {
            isFullRedraw = true
            runs = (0..<new.height).compactMap { y in
                let start = y * new.width
                let row = Array(new.cells[start..<start + new.width])
                return row.isEmpty ? nil : Run(y: y, x: 0, cells: row)
            }
            return
        }
        isFullRedraw = false
        // Compared through buffer pointers: a cell is read in place, not copied (and its
        // character retained and released) once a comparison.
        runs = old.cells.withUnsafeBufferPointer { before in
            new.cells.withUnsafeBufferPointer { after in
                Self.changedRuns(before, after, width: new.width, height: new.height)
            }
        }
    }

    /// The runs that turn `old` into `new` (same size), cells compared where they lie.
    private static func changedRuns(
        _ old: UnsafeBufferPointer<Cell>, _ new: UnsafeBufferPointer<Cell>, width: Int, height: Int
    ) -> [Run] {
        var result: [Run] = []
        for y in 0..<height {
            let base = y * width
            var x = 0
            while x < width {
                if old[base + x] == new[base + x] {
                    x += 1
                    continue
                }
                var start = x
                if new[base + start].isContinuation, start > 0 { start -= 1 }
                // `end` is just past the last changed cell; look ahead at most `mergeGap` cells.
                var end = x + 1
                var probe = x + 1
                while probe < width, probe - end < mergeGap + 1 {
                    if old[base + probe] != new[base + probe] { end = probe + 1 }
                    probe += 1
                }
                if end < width, new[base + end].isContinuation { end += 1 }
                if let last = result.last, last.y == y, last.x + last.cells.count > start {
                    // Widening to a whole glyph touched the previous run: extend it instead.
                    result[result.count - 1] = Run(y: y, x: last.x, cells: Array(new[base + last.x..<base + end]))
                } else {
                    result.append(Run(y: y, x: start, cells: Array(new[base + start..<base + end])))
                }
                x = end
            }
        }
        return result
    }
}
