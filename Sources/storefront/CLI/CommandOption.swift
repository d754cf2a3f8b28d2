/// What the parser and the help need of any `--name` option: its name, its value's
/// placeholder, its help line and how to check a value. `Option` and `Flag` are the two kinds.
protocol CommandOption: Sendable {
    /// The long name without dashes, e.g. `quantity`.
    var name: String { get }
    /// The placeholder for its value, e.g. `N`; `nil` for a flag.
    var valueName: String? { get }
    /// One line of help.
    var help: String { get }
    /// Checks a value given on the command line by parsing it.
    /// - Throws: `CLIError.usage` saying what the option takes.
    func validate(_ value: String) throws(CLIError)
}

extension CommandOption {
    /// Whether the option takes a value (`--name VALUE` or `--name=VALUE`).
    var takesValue: Bool { valueName != nil }

    /// The option as shown in help, e.g. `--quantity N`.
    var synopsis: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}
