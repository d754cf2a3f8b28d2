/// An option without a value, e.g. `--json`, declared once for the parser and the help.
struct Flag: CommandOption {
    let name: String
    let help: String
    var valueName: String? { nil }

    /// Declares a flag.
    init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }

    func validate(_ value: String) throws(CLIError) {}
}
