import StoreCore

/// `storefront help [COMMAND]`: the main help, or one command's.
struct HelpCommand: Command {
    let name = "help"
    let summary = "Show help for storefront or for one command."
    var forms: [UsageForm] { [UsageForm("[COMMAND]")] }
    let discussion = "'storefront help products' is the same as 'storefront products --help'."

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard let topic = invocation.arguments.first else {
            context.output.write(HelpText.main(version: StoreCoreInfo.version, commands: CommandRegistry.all))
            return
        }
        guard invocation.arguments.count == 1 else { throw .usage("help takes at most one command name.") }
        guard let command = CommandRegistry.all.first(where: { $0.name == topic }) else {
            throw .usage("unknown command '\(topic)'. Run 'storefront --help' for the list of commands.")
        }
        context.output.write(HelpText.command(command))
    }
}
