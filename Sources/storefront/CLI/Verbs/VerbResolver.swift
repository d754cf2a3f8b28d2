/// How the parser reads the words after a command made of verbs: which verb they name, and
/// whether what was given fits its declaration. Every message names the verb.
enum VerbResolver {
    /// The verb `words` begin with (the longest name that fits, so `notifications resend UUID`
    /// is not `notifications` with two arguments), and the words after its name. Words that
    /// name no verb are the default verb's arguments, when it takes arguments.
    /// - Throws: `CLIError.usage` for no verb or an unknown one.
    static func resolve(_ words: [String], in command: any VerbCommand) throws(CLIError) -> (any Verb, [String]) {
        let named = command.verbs.filter { !$0.name.isEmpty && words.starts(with: $0.words) }
        if let verb = named.max(by: { $0.words.count < $1.words.count }) {
            return (verb, Array(words.dropFirst(verb.words.count)))
        }
        let fallback = command.defaultVerb
        guard let first = words.first else {
            guard let fallback else {
                throw .usage("\(command.name) needs a subcommand; see 'storefront help \(command.name)'.")
            }
            return (fallback, [])
        }
        guard let fallback, !fallback.arguments.isEmpty else {
            throw .usage("unknown \(command.name) subcommand '\(first)'; see 'storefront help \(command.name)'.")
        }
        return (fallback, words)
    }

    /// Checks what was given against `verb`'s declaration: each option is one of its own (or
    /// global), its required options are there, its arguments are as many as it declares and
    /// each reads, and each option's value reads.
    /// - Throws: `CLIError.usage` naming the verb and what is wrong.
    static func check(_ invocation: Invocation, for verb: any Verb, of command: any VerbCommand) throws(CLIError) {
        let path = command.path(of: verb)
        let usage = "usage: storefront \(command.synopsis(of: verb))"
        for option in command.options where invocation.options[option.name] != nil && !verb.takes(option) {
            let owner = command.verbs.first { $0.takes(option) }.map(command.synopsis(of:)) ?? command.name
            throw .usage("--\(option.name) belongs to '\(owner)', not to '\(path)'.")
        }
        let given = invocation.arguments
        let least = verb.arguments.filter { !$0.isOptional }.count
        if given.count > verb.arguments.count {
            throw .usage("\(path) got an unexpected argument '\(given[verb.arguments.count])' (\(usage)).")
        }
        if given.count < least {
            let missing = verb.arguments[given.count..<least].map(\.valueName).joined(separator: " ")
            throw .usage("\(path) is missing \(missing) (\(usage)).")
        }
        for option in verb.requiredOptions where invocation.options[option.name] == nil {
            throw .usage("\(path) needs \(option.synopsis).")
        }
        for (argument, text) in zip(verb.arguments, given) { try argument.check(text) }
        for option in verb.requiredOptions + verb.options {
            if let value = invocation.options[option.name] { try option.validate(value) }
        }
    }
}
