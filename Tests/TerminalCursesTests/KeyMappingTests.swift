import StorefrontUI
import Testing

@testable import TerminalCurses

/// What `get_wch` returns, turned into the app's `Key`s. The codes are ncurses' own, as
/// `<ncursesw/curses.h>` defines them (octal there too); they are part of ncurses' ABI.
@Suite struct KeyMappingTests {
    /// Every key code `KeyMapping` knows, with the key it must give.
    static let functionKeys: [(name: String, code: Int32, key: Key)] = [
        ("KEY_DOWN", 0o402, .down), ("KEY_UP", 0o403, .up), ("KEY_LEFT", 0o404, .left), ("KEY_RIGHT", 0o405, .right),
        ("KEY_HOME", 0o406, .home), ("KEY_END", 0o550, .end), ("KEY_PPAGE", 0o523, .pageUp),
        ("KEY_NPAGE", 0o522, .pageDown),
        ("KEY_BACKSPACE", 0o407, .backspace), ("KEY_DC", 0o512, .delete), ("KEY_IC", 0o513, .insert),
        ("KEY_ENTER", 0o527, .enter), ("KEY_BTAB", 0o541, .backTab),
    ]

    @Test func everyNamedKeyCodeGivesItsKey() {
        for (name, code, key) in Self.functionKeys {
            #expect(KeyMapping.functionKey(code) == .key(key), "\(name)")
        }
    }

    @Test func functionKeysOneToTwelve() {
        // KEY_F(n) is KEY_F0 + n, KEY_F0 being 0410.
        for n in 1...12 {
            #expect(KeyMapping.functionKey(0o410 + Int32(n)) == .key(.function(n)), "F\(n)")
        }
    }

    @Test func aResizeIsNotAKey() {
        #expect(KeyMapping.functionKey(0o632) == .resize)  // KEY_RESIZE
    }

    @Test func codesTheAppDoesNotUseAreDropped() {
        // KEY_F0, F13, KEY_MOUSE, keypad A1, shifted left, KEY_MIN, KEY_MAX, and no code at all.
        for code: Int32 in [0o410, 0o425, 0o631, 0o534, 0o611, 0o401, 0o777, 0] {
            #expect(KeyMapping.functionKey(code) == nil, "code \(String(code, radix: 8))")
        }
    }

    @Test func enterEscapeTabAndBackspace() {
        #expect(KeyMapping.character(13) == .key(.enter))  // CR: Enter with `nonl()`
        #expect(KeyMapping.character(10) == .key(.enter))  // LF: Ctrl-J
        #expect(KeyMapping.character(27) == .key(.escape))  // ESC alone; sequences arrive decoded as key codes
        #expect(KeyMapping.character(9) == .key(.tab))
        #expect(KeyMapping.character(8) == .key(.backspace))  // Ctrl-H
        #expect(KeyMapping.character(127) == .key(.backspace))  // DEL, what most terminals send
    }

    @Test func controlLettersAreControlKeys() {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let special: [UInt32: Key] = [8: .backspace, 9: .tab, 10: .enter, 13: .enter]
        for value: UInt32 in 1...26 {
            let expected = special[value] ?? .control(letters[Int(value) - 1])
            #expect(KeyMapping.character(value) == .key(expected), "code \(value)")
        }
        #expect(KeyMapping.character(3) == .key(.control("c")))
    }

    @Test func otherControlCharactersAreDropped() {
        for value: UInt32 in [0, 28, 29, 30, 31] {
            #expect(KeyMapping.character(value) == nil, "code \(value)")
        }
    }

    @Test func printableCharactersComeThroughAsTyped() {
        for character: Character in [" ", "a", "Z", "0", "/", "~", "é", "コ", "金", "😀"] {
            let value = character.unicodeScalars.first?.value ?? 0
            #expect(KeyMapping.character(value) == .key(.character(character)), "\(character)")
        }
    }

    @Test func valuesThatAreNoUnicodeScalarAreDropped() {
        #expect(KeyMapping.character(0xD800) == nil)  // a lone surrogate
        #expect(KeyMapping.character(0x11_0000) == nil)  // past Unicode
    }
}
