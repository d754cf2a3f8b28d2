import StoreCore

/// Runs one command line: parse, dispatch, turn errors into messages and exit statuses.
struct StorefrontCLI {
    /// The commands this build knows.
    var commands: [any Command] = CommandRegistry.all

    /// Runs `arguments` (without the program name) and returns the exit status.
    func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        do throws(CLIError) {
            let invocation = try ArgumentParser(commands: commands).parse(arguments)
            guard let name = invocation.command, let command = commands.first(where: { $0.name == name }) else {
                // No command: the full-screen storefront on a terminal, else help and a note.
                if invocation.command == nil, !invocation.global.help {
                    if StorefrontTUI.isAvailable {
                        return try await StorefrontTUI.run(invocation, context: context)
                    }
                    context.output.writeError(StorefrontTUI.needsTerminal)
                }
                context.output.write(HelpText.main(version: StoreCoreInfo.version, commands: commands))
                return 0
            }
            if invocation.global.help {
                context.output.write(HelpText.help(command, verb: invocation.verb))
                return 0
            }
            try await command.run(invocation, context: context)
            return 0
        } catch {
            context.output.writeError("storefront: \(error.message)\n")
            return error.exitStatus
        }
    }
}
