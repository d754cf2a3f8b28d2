/// A parsed command line: the command, the global options, the command's own options and arguments.
struct Invocation: Sendable, Equatable {
    /// The command name, `nil` when none was given.
    var command: String?
    /// Options every command accepts.
    var global = GlobalOptions()
    /// The command's own options by name; flags hold `""`.
    var options: [String: String] = [:]
    /// Positional arguments after the command name.
    var arguments: [String] = []
}
