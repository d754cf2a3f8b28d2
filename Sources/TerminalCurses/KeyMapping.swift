import CNCurses
import StorefrontUI

/// Turns what `get_wch` returns into the app's `Key`, or a resize.
enum KeyMapping {
    /// One decoded input.
    enum Input: Equatable {
        case key(Key)
        case resize
    }

    /// Decodes a function-key code (`get_wch` returned `KEY_CODE_YES`).
    static func functionKey(_ code: Int32) -> Input? {
        switch code {
        case KEY_RESIZE: return .resize
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_IC: return .key(.insert)
        case KEY_ENTER: return .key(.enter)
        case KEY_BTAB: return .key(.backTab)
        default:
            for n in 1...12 where code == cncurses_key_f(Int32(n)) { return .key(.function(n)) }
            return nil
        }
    }

    /// Decodes a character (`get_wch` returned `OK`).
    static func character(_ value: UInt32) -> Input? {
        switch value {
        case 13, 10: return .key(.enter)
        case 27: return .key(.escape)
        case 9: return .key(.tab)
        case 8, 127: return .key(.backspace)
        case 1...26:
            guard let scalar = Unicode.Scalar(value + 96) else { return nil }
            return .key(.control(Character(scalar)))
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }
}
