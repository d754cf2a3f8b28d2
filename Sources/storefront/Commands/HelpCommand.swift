import StoreCore

/// `storefront help [COMMAND [VERB]]`: the main help, one command's, or one verb's.
struct HelpCommand: Command {
    let name = "help"
    let summary = "Show help for storefront or for one command."
    var forms: [UsageForm] { [UsageForm("[COMMAND [VERB]]")] }
    let discussion = """
        'storefront help products' is the same as 'storefront products --help', and 'storefront
        help store renew' the same as 'storefront store renew --help'.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard let topic = invocation.arguments.first else {
            context.output.write(HelpText.main(version: StoreCoreInfo.version, commands: CommandRegistry.all))
            return
        }
        // The words are read as the command line reads them (an unknown command or verb is
        // refused in the same words), so the same verb is found.
        let asked = try ArgumentParser(commands: CommandRegistry.all).parse(invocation.arguments + ["--help"])
        guard let command = CommandRegistry.all.first(where: { $0.name == asked.command }) else { return }
        if let extra = asked.arguments.first {
            let asked = ([topic] + (asked.verb.map { [$0] } ?? [])).filter { !$0.isEmpty }.joined(separator: " ")
            throw .usage("help: \(asked) has no subcommand '\(extra)'; see 'storefront help \(asked)'.")
        }
        context.output.write(HelpText.help(command, verb: asked.verb))
    }
}
