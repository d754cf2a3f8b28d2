import Catalog
import StoreKitValues
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

    /// `storefront help NAME`: usage, summary, the verbs of a command made of verbs, discussion,
    /// the command's options, then the global ones.
    static func command(_ command: any Command) -> String {
        var lines = usageLines(command) + ["", command.summary]
        if let command = command as? any VerbCommand { lines += [""] + verbList(command) }
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        return (lines + optionSections(command.options)).joined(separator: "\n") + "\n"
    }

    /// The help `storefront NAME [VERB] --help` prints: the verb's when a verb is named, else the command's.
    static func help(_ command: any Command, verb name: String?) -> String {
        guard let command = command as? any VerbCommand, let name, !name.isEmpty, let verb = command.verb(named: name)
        else { return Self.command(command) }
        return Self.verb(verb, of: command)
    }

    /// `storefront store VERB --help`: the verb's usage, abstract, footnote and discussion, its
    /// options, then the global ones.
    static func verb(_ verb: any Verb, of command: any VerbCommand) -> String {
        var lines = usageLines(prefix: "USAGE: storefront \(command.name)", forms: [verb.form]) + [""]
        lines += wrap(verb.abstract.prefix(1).uppercased() + verb.abstract.dropFirst() + ".")
        if let footnote = verb.footnote { lines += [""] + wrap(footnote) }
        if !verb.discussion.isEmpty { lines += ["", verb.discussion] }
        let options = (verb.requiredOptions + verb.options).filter { !GlobalOptions.names.contains($0.name) }
        return (lines + optionSections(options)).joined(separator: "\n") + "\n"
    }

    /// How wide a verb's entry is in its command's help: the name column, then the abstract's.
    static let verbColumn = 19
    static let abstractWidth = 68

    /// The verbs of `command` as its help lists them: each one's name and arguments, then its
    /// abstract in a second column, wrapped under itself (a name too wide for the column stands
    /// on a line of its own); a footnote once, after the last of the verbs that share it.
    static func verbList(_ command: any VerbCommand) -> [String] {
        let verbs = command.verbs
        return verbs.indices.flatMap { index in
            let verb = verbs[index]
            let name = verb.name.isEmpty ? [command.name, verb.signature].joined(separator: " ") : verb.signature
            let abstract = TextLayout.wrap(verb.abstract, width: abstractWidth)
            let indent = String(repeating: " ", count: verbColumn)
            var lines =
                DisplayWidth.of(name) + 2 > verbColumn
                ? [name] + abstract.map { indent + $0 }
                : [TextLayout.pad(name, to: verbColumn) + abstract[0]] + abstract.dropFirst().map { indent + $0 }
            if let footnote = verb.footnote, index == verbs.count - 1 || verbs[index + 1].footnote != footnote {
                lines += wrap(footnote)
            }
            return lines
        }
    }

    /// A paragraph wrapped as the discussions are.
    private static func wrap(_ text: String) -> [String] { TextLayout.wrap(text, width: verbColumn + abstractWidth) }

    /// The OPTIONS section (when there are options), then GLOBAL OPTIONS.
    private static func optionSections(_ options: [any CommandOption]) -> [String] {
        (options.isEmpty ? [] : ["", "OPTIONS:"] + optionLines(options)) + ["", "GLOBAL OPTIONS:"]
            + optionLines(GlobalOptions.specs)
    }

    /// `USAGE: storefront NAME FORM | FORM…`, wrapped before a form or an option (never inside
    /// one), under the first form.
    static func usageLines(_ command: any Command) -> [String] {
        usageLines(prefix: "USAGE: storefront \(command.name)", forms: command.forms)
    }

    /// `PREFIX FORM | FORM…`, wrapped before a form or an option, under the first form.
    static func usageLines(prefix: String, forms: [UsageForm]) -> [String] {
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
