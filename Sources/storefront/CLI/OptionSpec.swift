/// One `--name` option a command (or every command) accepts.
struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes, e.g. `catalog`.
    let name: String
    /// The placeholder for its value, e.g. `PATH`; `nil` for a flag.
    let valueName: String?
    /// One or two lines of help.
    let help: String

    /// Whether the option takes a value (`--name VALUE` or `--name=VALUE`).
    var takesValue: Bool { valueName != nil }

    /// The option as shown in help, e.g. `--catalog PATH`.
    var synopsis: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}
