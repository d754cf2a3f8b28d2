/// What a verb runs with: the command line as parsed, and the world it writes to.
struct VerbCall {
    /// The parsed command line; its arguments are those after the verb's name.
    let invocation: Invocation
    /// Environment, working directory and output.
    let context: CommandContext

    /// The arguments after the verb's name, as many as it declares (the parser counted them).
    var arguments: [String] { invocation.arguments }
    /// Whether `--json` was given.
    var json: Bool { invocation.global.json }
    /// Standard output and error.
    var output: any TextOutput { context.output }

    /// The value of `option`, parsed; `nil` when it was not given.
    func value<Value>(_ option: Option<Value>) throws(CLIError) -> Value? { try invocation.value(option) }

    /// The value of an option the verb requires (the parser has checked that it was given).
    /// - Throws: `CLIError.usage` naming the option when it is missing or bad.
    func required<Value>(_ option: Option<Value>) throws(CLIError) -> Value {
        guard let value = try value(option) else { throw .usage("\(option.synopsis) is required.") }
        return value
    }

    /// Whether `flag` was given.
    func isSet(_ flag: Flag) -> Bool { invocation.isSet(flag) }

    /// Writes `json` with `--json`, else `lines`, each ended by a newline.
    func write(json: @autoclosure () -> JSONText, lines: @autoclosure () -> [String]) {
        output.write(self.json ? json().rendered() : lines().map { $0 + "\n" }.joined())
    }
}
