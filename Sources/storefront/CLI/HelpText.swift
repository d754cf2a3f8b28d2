import Catalog

/// The help screens, as pure functions of the command list (tests call them directly).
enum HelpText {
    /// `storefront --help`: what the tool is, the commands, the global options, exit statuses.
    static func main(version: String, commands: [any Command]) -> String {
        var lines = [
            "storefront \(version): an in-app purchase engine, a local App Store and a terminal storefront.",
            "",
            "USAGE: storefront [COMMAND] [OPTIONS]",
            "",
            "Without a command, storefront prints this help (the terminal storefront comes later).",
            "",
            "COMMANDS:",
        ]
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            lines.append("  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary)
        }
        lines += ["", "GLOBAL OPTIONS (accepted by every command):"]
        lines += optionLines(GlobalOptions.specs)
        lines += [
            "",
            "STOREFRONTS: " + Storefront.all.map(\.code).joined(separator: " "),
            "",
            "EXIT STATUS: 0 success, 1 runtime error (e.g. a bad catalog), 2 usage error.",
            "",
            "Run 'storefront help COMMAND' for a command's details.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `storefront help NAME`: usage, discussion, the command's options, then the global ones.
    static func command(_ command: any Command) -> String {
        var lines = ["USAGE: storefront \(command.name) \(command.usage)", "", command.summary]
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        if !command.options.isEmpty {
            lines += ["", "OPTIONS:"]
            lines += optionLines(command.options)
        }
        lines += ["", "GLOBAL OPTIONS:"]
        lines += optionLines(GlobalOptions.specs)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Two-column option lines: the synopsis, then its help aligned.
    static func optionLines(_ specs: [OptionSpec]) -> [String] {
        let width = (specs.map(\.synopsis.count).max() ?? 0) + 2
        return specs.map { spec in
            "  " + spec.synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + spec.help
        }
    }
}
