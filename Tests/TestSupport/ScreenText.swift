/// A terminal screen as text, the way the golden screens and the storefront guide's picture keep it: each
/// line without its trailing blanks (a terminal pads every row to its width).
public enum ScreenText {
    /// The lines joined by newlines, each without its trailing blanks.
    public static func trimmed(_ lines: some Sequence<some StringProtocol>) -> String {
        lines.map { line in
            var text = String(line)
            while text.last == " " { text.removeLast() }
            return text
        }.joined(separator: "\n")
    }
}
