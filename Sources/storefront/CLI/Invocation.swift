/// A parsed command line: the command and its verb, the global options, the command's own
/// options and arguments.
struct Invocation: Sendable, Equatable {
    /// The command name, `nil` when none was given.
    var command: String?
    /// Options every command accepts.
    var global = GlobalOptions()
    /// The command's own options as given, by name; flags hold `""`. The parser has checked
    /// each value with its option's parser; read them typed with `value(_:)` and `isSet(_:)`.
    var options: [String: String] = [:]
    /// The verb's name, for a command made of verbs (`renew`; empty for its default verb).
    var verb: String?
    /// Positional arguments after the command name, or after the verb's name.
    var arguments: [String] = []

    /// The value of `option`, parsed; `nil` when it was not given.
    /// - Throws: `CLIError.usage` for a bad value (the parser has already refused those).
    func value<Value>(_ option: Option<Value>) throws(CLIError) -> Value? {
        guard let text = options[option.name] else { return nil }
        return try option.parse(text)
    }

    /// Whether `flag` was given.
    func isSet(_ flag: Flag) -> Bool { options[flag.name] != nil }

    /// The one positional argument of a command that takes exactly one.
    /// - Throws: `CLIError.usage(usage)` when there is none, or more than one.
    func onlyArgument(orUsage usage: String) throws(CLIError) -> String {
        guard arguments.count == 1, let argument = arguments.first else { throw .usage(usage) }
        return argument
    }
}
