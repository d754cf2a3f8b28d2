import CNCurses
import StorefrontUI

/// `CellSurface` on ncurses' standard screen: each cell becomes a `cchar_t` with its
/// attributes and color pair, drawn with `mvadd_wch`.
struct CursesSurface: CellSurface {
    /// The color pairs handed out so far; `Terminal` keeps them between frames.
    var colors: ColorPairs

    /// Blanks the screen and has the next refresh clear the terminal first (a full redraw
    /// follows a start or a resize). After `erase` alone, ncurses draws only what differs from
    /// what it believes the terminal shows, and clears a frame's blank bottom rows ("Terminal
    /// too small") before the rows above, which it then starts at the top-left corner: half a
    /// frame with the cursor where a whole one leaves it (`refresh`).
    mutating func erase() { _ = CNCurses.clear() }

    /// Sends the frame and leaves the (hidden) cursor at the top-left corner. ncurses writes a
    /// frame from the top row down (no scrolling: `idlok` is off) and ends it at the screen's
    /// cursor, so the terminal's cursor is at the corner only between frames, before a frame's
    /// first cell, or just after a clear with nothing drawn: what reads the terminal in pieces
    /// (the tests, in tmux) tells a whole frame by it.
    mutating func refresh() {
        _ = move(0, 0)
        _ = CNCurses.refresh()
    }

    mutating func put(_ cell: Cell, x: Int, y: Int) {
        let attributes = Self.attributes(of: cell.style)
        let pair = colors.pair(for: cell.style)
        for piece in Self.pieces(of: cell) {
            var cchar = cchar_t()
            _ = cncurses_setcchar_cluster(&cchar, piece.characters, attributes, pair)
            _ = mvadd_wch(Int32(y), Int32(x + piece.offset), &cchar)
        }
    }

    /// What ncurses gets for a cell: its grapheme cluster whole, as zero-terminated wide strings
    /// at column offsets.
    ///
    /// ncurses counts a cell as wide as its first character. A cluster of several characters
    /// that each take columns, whose widths add up to the cell's (a flag: two regional
    /// indicators of one column each), goes one character a column, so ncurses' columns agree
    /// with the screen's and the terminal receives every code point in order. Any other cluster
    /// (an emoji with a skin tone, a ZWJ sequence, a keycap) goes into one cell, whole up to
    /// `CCHARW_MAX` code points. Widths are `DisplayWidth`'s, the screen's own.
    static func pieces(of cell: Cell) -> [(offset: Int, characters: [wchar_t])] {
        let scalars = cell.character.unicodeScalars
        if scalars.count == 1, let only = scalars.first { return [(0, [wchar_t(bitPattern: only.value), 0])] }
        var groups: [[Unicode.Scalar]] = []
        // A character that takes columns starts a group; zero-width ones join the group before.
        for scalar in scalars {
            if groups.isEmpty || DisplayWidth.of(scalar) > 0 {
                groups.append([scalar])
            } else {
                groups[groups.count - 1].append(scalar)
            }
        }
        guard groups.count > 1 else { return [(0, wide(Array(scalars)))] }
        let widths = groups.map { DisplayWidth.of($0[0]) }
        guard widths.reduce(0, +) == cell.width else { return [(0, wide(Array(scalars)))] }
        var offset = 0
        return zip(groups, widths).map { group, width in
            defer { offset += width }
            return (offset, wide(group))
        }
    }

    /// Scalars as the zero-terminated wide string ncurses takes, cut to the `CCHARW_MAX` one
    /// cell holds.
    private static func wide(_ scalars: [Unicode.Scalar]) -> [wchar_t] {
        scalars.prefix(Int(CCHARW_MAX)).map { wchar_t(bitPattern: $0.value) } + [0]
    }

    /// ncurses' attributes for a style's bold, dim, reverse and underline.
    static func attributes(of style: CellStyle) -> attr_t {
        var result = cncurses_wa_normal()
        if style.attributes.contains(.bold) { result |= cncurses_wa_bold() }
        if style.attributes.contains(.dim) { result |= cncurses_wa_dim() }
        if style.attributes.contains(.reverse) { result |= cncurses_wa_reverse() }
        if style.attributes.contains(.underline) { result |= cncurses_wa_underline() }
        return result
    }
}
