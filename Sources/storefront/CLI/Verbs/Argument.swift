/// A positional argument of a verb, e.g. `ID`, `[ID]` or `on|off`: its placeholder, whether it
/// may be left out, and how its text is checked. The parser checks every argument given before
/// the verb runs, so a bad one is a usage error before anything is opened.
struct Argument: Sendable {
    /// The placeholder the usage line shows, e.g. `ID`.
    let valueName: String
    /// Whether it may be left out; only the last arguments of a verb may be.
    let isOptional: Bool
    /// Checks a value given on the command line.
    let check: @Sendable (String) throws(CLIError) -> Void

    /// Declares an argument whose text is checked by `parse` (the verb parses it again, typed).
    /// - Parameters:
    ///   - valueName: the placeholder, e.g. `on|off`.
    ///   - optional: whether it may be left out.
    ///   - parse: text to value, throwing `CLIError.usage` for a bad one.
    init<Value>(
        _ valueName: String, optional: Bool = false, parse: @escaping @Sendable (String) throws(CLIError) -> Value
    ) {
        self.valueName = valueName
        self.isOptional = optional
        self.check = { (text: String) throws(CLIError) in _ = try parse(text) }
    }

    /// Declares an argument that takes any text (an ID, a path).
    init(_ valueName: String, optional: Bool = false) {
        self.init(valueName, optional: optional) { (text: String) throws(CLIError) in text }
    }

    /// The argument as the usage line shows it: `ID`, or `[ID]` when it may be left out.
    var synopsis: String { isOptional ? "[\(valueName)]" : valueName }
}
