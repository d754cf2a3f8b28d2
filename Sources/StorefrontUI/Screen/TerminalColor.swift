/// One of the eight ANSI colors, or the terminal's own default.
///
/// Eight colors work on every color terminal; the backend maps them to color pairs and drops
/// them entirely on monochrome terminals or when `NO_COLOR` is set.
public enum TerminalColor: UInt8, Hashable, Sendable, CaseIterable {
    /// The terminal's default foreground or background.
    case `default`
    case black, red, green, yellow, blue, magenta, cyan, white
}
