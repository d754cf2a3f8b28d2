import Catalog
import StorefrontUI

/// The help screens, as pure functions of the command list (tests call them directly, and
/// compare them with the snapshots in `Tests/storefrontTests/Snapshots/`).
enum HelpText {
    /// How wide help lines may be before the second column wraps.
    static let width = 100

    /// `storefront --help`: what the tool is, the commands, the global options, exit statuses.
    static func main(version: String, commands: [any Command]) -> String {
        var lines = [
            "storefront \(version): an in-app purchase engine, a local App Store and a terminal storefront.",
            "",
            "USAGE: storefront [COMMAND] [OPTIONS]",
            "",
            "Without a command, storefront opens the terminal storefront (browse and buy products,",
            "restore, My Purchases, the Transaction Manager, the store's settings) when standard input",
            "and output are a terminal; otherwise it says so and prints this help.",
            "",
            "COMMANDS:",
        ]
        lines += twoColumns(commands.map { ($0.name, $0.summary) })
        lines += ["", "GLOBAL OPTIONS (accepted by every command):"]
        lines += optionLines(GlobalOptions.specs)
        lines += [""]
        lines += TextLayout.wrap("STOREFRONTS: " + Storefront.all.map(\.code).joined(separator: " "), width: width)
        lines += [
            "",
            "EXIT STATUS: 0 success, 1 runtime error (e.g. a bad catalog), 2 usage error.",
            "",
            "Run 'storefront help COMMAND' for a command's details.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `storefront help NAME`: usage, discussion, the command's options, then the global ones.
    static func command(_ command: any Command) -> String {
        var lines = usageLines(command) + ["", command.summary]
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        if !command.options.isEmpty {
            lines += ["", "OPTIONS:"]
            lines += optionLines(command.options)
        }
        lines += ["", "GLOBAL OPTIONS:"]
        lines += optionLines(GlobalOptions.specs)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `USAGE: storefront NAME FORM | FORM…`, wrapped before a form or an option (never inside
    /// one), under the first form.
    static func usageLines(_ command: any Command) -> [String] {
        let prefix = "USAGE: storefront \(command.name)"
        let forms = command.forms
        var pieces: [String] = []
        for (index, form) in forms.enumerated() {
            var parts =
                [form.words].filter { !$0.isEmpty } + form.required.map(\.synopsis)
                + form.optional.map { "[\($0.synopsis)]" }
            if index < forms.count - 1, !parts.isEmpty { parts[parts.count - 1] += " |" }
            pieces += parts
        }
        var lines: [String] = []
        var line = prefix
        for piece in pieces {
            if line.count + 1 + piece.count > width, line.count > prefix.count + 1 {
                lines.append(line)
                line = String(repeating: " ", count: prefix.count)
            }
            line += " " + piece
        }
        return lines + [line]
    }

    /// Two-column option lines: the synopsis, then its help aligned.
    static func optionLines(_ specs: [any CommandOption]) -> [String] {
        twoColumns(specs.map { ($0.synopsis, $0.help) })
    }

    /// Lines of `  LEFT  RIGHT`, the right column aligned after the longest left one and
    /// wrapped to `width` columns under itself.
    static func twoColumns(_ rows: [(String, String)]) -> [String] {
        let column = (rows.map { DisplayWidth.of($0.0) }.max() ?? 0) + 4
        return rows.flatMap { left, right in
            let wrapped = TextLayout.wrap(right, width: max(20, width - column))
            return wrapped.enumerated().map { index, text in
                (index == 0 ? TextLayout.pad("  " + left, to: column) : String(repeating: " ", count: column)) + text
            }
        }
    }
}
