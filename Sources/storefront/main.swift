import Foundation

let status = await StorefrontCLI().run(
    Array(CommandLine.arguments.dropFirst()),
    context: CommandContext(
        environment: ProcessInfo.processInfo.environment,
        currentDirectory: FileManager.default.currentDirectoryPath,
        output: StandardStreams()))
exit(status)
