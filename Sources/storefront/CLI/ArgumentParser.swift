/// Splits a command line into an `Invocation`: `storefront [COMMAND] [OPTIONS] [ARGUMENTS]`.
///
/// Options take `--name VALUE` or `--name=VALUE`; global options may come before or after the
/// command; a command's own options come after it; `--` ends options. Every option is a
/// declaration (`Option`, `Flag`): its value is checked by the option's own parser here, and
/// an option that takes a value may be given once. For a command made of verbs
/// (`VerbCommand`), the words after it name the verb, and the verb's declaration is checked
/// whole: its options, arguments and their values.
struct ArgumentParser {
    /// The commands whose names and options are known.
    let commands: [any Command]

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: `CLIError.usage` for an unknown command, verb or option, a missing, repeated or
    ///   bad value, a verb's missing or extra argument (values and arguments are not checked
    ///   when help is asked for).
    func parse(_ arguments: [String]) throws(CLIError) -> Invocation {
        var invocation = Invocation()
        var command: (any Command)?
        var given: [String: String] = [:]
        var index = 0
        var optionsEnded = false
        var help = false
        var words: [String] = []
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            // A negative number is an argument (`store set latency -5`), never an option: the
            // setting's own parser then says what it accepts.
            if optionsEnded || !token.hasPrefix("-") || token == "-" || Double(token) != nil {
                if invocation.command == nil {
                    guard let found = commands.first(where: { $0.name == token }) else {
                        throw .usage("unknown command '\(token)'. Run 'storefront --help' for the list of commands.")
                    }
                    invocation.command = token
                    command = found
                } else {
                    words.append(token)
                }
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            if token == "-h" {
                help = true
                continue
            }
            guard token.hasPrefix("--") else {
                throw .usage("unknown option '\(token)'. Options are spelled --name; run 'storefront --help'.")
            }
            let body = token.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            let spec = GlobalOptions.specs.first { $0.name == name } ?? command?.options.first { $0.name == name }
            guard let spec else { throw Self.unknownOption(name, command: command, words: words) }
            guard spec.takesValue else {
                if inlineValue != nil { throw .usage("option '--\(name)' takes no value.") }
                given[name] = ""
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw .usage("option '--\(name)' needs a value (\(spec.synopsis)).")
            }
            if value.isEmpty { throw .usage("option '--\(name)' needs a non-empty value (\(spec.synopsis)).") }
            guard given.updateValue(value, forKey: name) == nil else {
                throw .usage("option '--\(name)' was given more than once; give it once (\(spec.synopsis)).")
            }
        }
        invocation.global = GlobalOptions(given: given)
        invocation.global.help = invocation.global.help || help
        invocation.options = given.filter { !GlobalOptions.names.contains($0.key) }
        invocation.arguments = words
        // `storefront store --help` asks for the command's page, not for a verb.
        if let command = command as? any VerbCommand, !(invocation.global.help && words.isEmpty) {
            let (verb, arguments) = try VerbResolver.resolve(words, in: command)
            invocation.verb = verb.name
            invocation.arguments = arguments
            if !invocation.global.help { try VerbResolver.check(invocation, for: verb, of: command) }
        } else if !invocation.global.help, let command {
            for option in command.options {
                if let value = invocation.options[option.name] { try option.validate(value) }
            }
        }
        return invocation
    }

    /// An option no declaration names, reported for the verb the words so far name, if any (an
    /// unknown verb before it is reported first, as it comes first).
    private static func unknownOption(_ name: String, command: (any Command)?, words: [String]) -> CLIError {
        guard let command else { return .usage("unknown option '--\(name)' for storefront. Run 'storefront --help'.") }
        var path = command.name
        if let command = command as? any VerbCommand, !words.isEmpty {
            do throws(CLIError) {
                path = command.path(of: try VerbResolver.resolve(words, in: command).0)
            } catch {
                return error
            }
        }
        let hint = path == command.name ? "storefront help \(path)" : "storefront \(path) --help"
        return .usage("unknown option '--\(name)' for 'storefront \(path)'. Run '\(hint)'.")
    }
}
