/// What a command may use from the outside world: environment, working directory, output.
struct CommandContext {
    /// The process environment.
    let environment: [String: String]
    /// The working directory relative paths resolve against.
    let currentDirectory: String
    /// Standard output and error.
    let output: any TextOutput
}
