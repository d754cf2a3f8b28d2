import CNCurses
import StorefrontUI

/// `CellSurface` on ncurses' standard screen: each cell becomes a `cchar_t` with its
/// attributes and color pair, drawn with `mvadd_wch`.
struct CursesSurface: CellSurface {
    /// The color pairs handed out so far; `Terminal` keeps them between frames.
    var colors: ColorPairs

    mutating func erase() { _ = CNCurses.erase() }

    mutating func refresh() { _ = CNCurses.refresh() }

    mutating func put(_ cell: Cell, x: Int, y: Int) {
        let wide = Self.wideCharacters(cell.character)
        let attributes = Self.attributes(of: cell.style)
        let pair = colors.pair(for: cell.style)
        var cchar = cchar_t()
        if setcchar(&cchar, wide, attributes, pair, nil) != OK {
            // A cluster ncurses cannot hold in one cell (an emoji ZWJ sequence): its base.
            let base: [wchar_t] = [wide[0], 0]
            _ = setcchar(&cchar, base, attributes, pair, nil)
        }
        _ = mvadd_wch(Int32(y), Int32(x), &cchar)
    }

    /// The character's scalars as the zero-terminated wide string `setcchar` takes, cut to
    /// the `CCHARW_MAX` scalars one cell holds.
    static func wideCharacters(_ character: Character) -> [wchar_t] {
        character.unicodeScalars.prefix(Int(CCHARW_MAX)).map { wchar_t(bitPattern: $0.value) } + [0]
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
