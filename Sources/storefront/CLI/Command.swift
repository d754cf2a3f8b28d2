/// One `storefront` subcommand. Each lives in its own file under `Commands/` and is listed in
/// `CommandRegistry.all`; a command made of verbs (`store`, `receipt`…) is a `VerbCommand`.
protocol Command: Sendable {
    /// The name typed on the command line, e.g. `products`.
    var name: String { get }
    /// One line for the command list.
    var summary: String { get }
    /// The ways to call it, each with the options it takes: the usage line, the command's own
    /// options (those that are not global) and the options of each verb are made from these.
    var forms: [UsageForm] { get }
    /// A paragraph or two for `storefront help NAME`.
    var discussion: String { get }

    /// Runs the command, writing to `context.output`.
    ///
    /// - Throws: `CLIError.usage` for bad arguments (exit 2), `.runtime` for failures (exit 1).
    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError)
}

extension Command {
    /// What follows `storefront NAME` in the usage line: the forms, separated by ` | `.
    var usage: String { forms.map(\.synopsis).joined(separator: " | ") }

    /// The command's own options (global options are always accepted too), each once, in the
    /// order the forms name them.
    var options: [any CommandOption] {
        var seen: Set<String> = GlobalOptions.names
        return forms.flatMap(\.options).filter { seen.insert($0.name).inserted }
    }

}
