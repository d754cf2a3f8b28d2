/// One `storefront` subcommand. Each lives in its own file under `Commands/` and is listed in
/// `CommandRegistry.all`.
protocol Command: Sendable {
    /// The name typed on the command line, e.g. `products`.
    var name: String { get }
    /// One line for the command list.
    var summary: String { get }
    /// What follows `storefront NAME` in the usage line, e.g. `[OPTIONS]`.
    var usage: String { get }
    /// A paragraph or two for `storefront help NAME`.
    var discussion: String { get }
    /// The command's own options (global options are always accepted too).
    var options: [OptionSpec] { get }

    /// Runs the command, writing to `context.output`.
    ///
    /// - Throws: `CLIError.usage` for bad arguments (exit 2), `.runtime` for failures (exit 1).
    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError)
}
