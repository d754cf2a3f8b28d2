/// Fitting text into columns: truncation with an ellipsis, padding, and word wrapping that
/// breaks CJK text between any two characters.
public enum TextLayout {
    /// `text` cut to at most `width` columns, ending in `…` when cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` truncated and padded with spaces to exactly `width` columns.
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, to: width)
        let fill = String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
        return alignRight ? fill + cut : cut + fill
    }

    /// `text` broken into lines of at most `width` columns: at spaces where possible, between
    /// wide (CJK) characters anywhere, and inside a word only when the word alone is too long.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for token in tokens(of: String(paragraph)) {
                let tokenWidth = DisplayWidth.of(token)
                if token == " " {
                    if lineWidth > 0, lineWidth < width {
                        line += " "
                        lineWidth += 1
                    }
                    continue
                }
                if lineWidth + tokenWidth > width, lineWidth > 0 {
                    lines.append(trimTrailing(line))
                    line = ""
                    lineWidth = 0
                }
                if tokenWidth > width {
                    for character in token {
                        let w = DisplayWidth.of(character)
                        if lineWidth + w > width {
                            lines.append(line)
                            line = ""
                            lineWidth = 0
                        }
                        line.append(character)
                        lineWidth += w
                    }
                } else {
                    line += token
                    lineWidth += tokenWidth
                }
            }
            lines.append(trimTrailing(line))
        }
        return lines
    }

    /// `items` joined with `separator` into lines of at most `width` columns, breaking only
    /// between items (an item wider than a line is wrapped on its own).
    public static func join(_ items: [String], separator: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for item in items {
            let candidate = line.isEmpty ? item : line + separator + item
            if DisplayWidth.of(candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            if DisplayWidth.of(item) <= width {
                line = item
            } else {
                let parts = wrap(item, width: width)
                lines += parts.dropLast()
                line = parts.last ?? ""
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Words, single spaces, and each wide character as its own token.
    private static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in text {
            if character == " " || character == "\t" {
                if !word.isEmpty {
                    tokens.append(word)
                    word = ""
                }
                tokens.append(" ")
            } else if DisplayWidth.of(character) == 2 {
                if !word.isEmpty {
                    tokens.append(word)
                    word = ""
                }
                tokens.append(String(character))
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    private static func trimTrailing(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
