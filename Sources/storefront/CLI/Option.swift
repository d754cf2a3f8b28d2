/// An option that takes one value of type `Value`, declared once: the parser checks its value
/// with `parse`, the help shows `synopsis` and `help`, and a command reads it typed through
/// `Invocation.value(_:)`. Given twice, it is a usage error.
struct Option<Value: Sendable>: CommandOption {
    let name: String
    let valueName: String?
    let help: String
    /// Text to value; throws the usage error naming the option and what it takes.
    let parse: @Sendable (String) throws(CLIError) -> Value

    /// Declares an option.
    /// - Parameters:
    ///   - name: the long name without dashes.
    ///   - valueName: the placeholder for its value, e.g. `N`.
    ///   - help: one line of help.
    ///   - parse: text to value, throwing `CLIError.usage` for a bad one.
    init(_ name: String, valueName: String, help: String, parse: @escaping @Sendable (String) throws(CLIError) -> Value)
    {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.parse = parse
    }

    func validate(_ value: String) throws(CLIError) { _ = try parse(value) }
}

extension Option where Value == String {
    /// Declares an option whose value is any non-empty text (a path, a name).
    init(_ name: String, valueName: String, help: String) {
        self.init(name, valueName: valueName, help: help) { (text: String) throws(CLIError) -> String in text }
    }
}
