/// A progress bar with eighth-of-a-cell resolution: `█████▍    `.
public enum ProgressBar {
    /// The partial blocks, from one eighth to seven eighths of a cell.
    static let partials: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The bar for `fraction` (clamped to 0…1; NaN is 0) in exactly `width` columns.
    public static func text(fraction: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let clamped = fraction.isNaN ? 0 : min(1, max(0, fraction))
        let eighths = Int((clamped * Double(width * 8)).rounded(.down))
        let full = eighths / 8
        let rest = eighths % 8
        var bar = String(repeating: "█", count: full)
        if rest > 0 { bar.append(partials[rest - 1]) }
        let used = full + (rest > 0 ? 1 : 0)
        bar.append(String(repeating: " ", count: width - used))
        return bar
    }
}

extension Screen {
    /// Draws a progress bar in `width` columns with `style`, its empty part in `trackStyle`.
    public mutating func progressBar(
        fraction: Double, x: Int, y: Int, width: Int, style: CellStyle = .plain, trackStyle: CellStyle? = nil
    ) {
        let bar = ProgressBar.text(fraction: fraction, width: width)
        // The full block and the track are most of the bar: each cell made (and measured) once.
        let full = Cell("█", style: style)
        let track = Cell("░", style: trackStyle ?? style)
        var column = x
        for character in bar {
            let cell =
                switch character {
                case "█": full
                case " ": track
                default: Cell(character, style: style)
                }
            set(cell, x: column, y: y)
            column += 1
        }
    }
}
