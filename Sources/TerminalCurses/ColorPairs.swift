import CNCurses
import StorefrontUI

/// Hands out ncurses color pairs for (foreground, background) combinations on first use, so
/// that terminals with few pairs (64 on `screen`) still get the ones the app really uses.
struct ColorPairs {
    /// Whether colors are drawn at all (false on monochrome terminals and with `NO_COLOR`).
    let enabled: Bool
    private let defaultColorsAvailable: Bool
    private let limit: Int
    private var pairs: [UInt16: Int16] = [:]

    /// Starts color if the terminal has it and the user did not opt out.
    init(noColor: Bool) {
        guard !noColor, has_colors() else {
            enabled = false
            defaultColorsAvailable = false
            limit = 0
            return
        }
        start_color()
        defaultColorsAvailable = use_default_colors() == OK
        enabled = true
        limit = Int(cncurses_color_pairs()) - 1
    }

    /// The pair number for a style's colors (0, the terminal's default, when out of pairs).
    mutating func pair(for style: CellStyle) -> Int16 {
        guard enabled, style.foreground != .default || style.background != .default else { return 0 }
        let key = UInt16(style.foreground.rawValue) << 8 | UInt16(style.background.rawValue)
        if let pair = pairs[key] { return pair }
        guard pairs.count < limit else { return 0 }
        let number = Int16(pairs.count + 1)
        init_pair(number, curses(style.foreground, isForeground: true), curses(style.background, isForeground: false))
        pairs[key] = number
        return number
    }

    private func curses(_ color: TerminalColor, isForeground: Bool) -> Int16 {
        switch color {
        case .default: defaultColorsAvailable ? -1 : Int16(isForeground ? COLOR_WHITE : COLOR_BLACK)
        case .black: Int16(COLOR_BLACK)
        case .red: Int16(COLOR_RED)
        case .green: Int16(COLOR_GREEN)
        case .yellow: Int16(COLOR_YELLOW)
        case .blue: Int16(COLOR_BLUE)
        case .magenta: Int16(COLOR_MAGENTA)
        case .cyan: Int16(COLOR_CYAN)
        case .white: Int16(COLOR_WHITE)
        }
    }
}
