/// A key press as the app sees it, independent of the terminal library.
public enum Key: Hashable, Sendable {
    /// A printable character (a letter, a digit, punctuation, a CJK character from an IME).
    case character(Character)
    /// A control key: `.control("c")` is Ctrl-C.
    case control(Character)
    case enter, escape, tab, backTab, backspace, delete, insert
    case up, down, left, right, home, end, pageUp, pageDown
    /// A function key, `F1` is `.function(1)`.
    case function(Int)
}
