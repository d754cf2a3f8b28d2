import Crypto
import Foundation

// Before anything else touches OpenSSL: no exit-time clean-up under running tasks.
CryptoLibrary.initialize()

let status = await StorefrontCLI().run(
    Array(CommandLine.arguments.dropFirst()),
    context: CommandContext(
        environment: ProcessInfo.processInfo.environment,
        currentDirectory: FileManager.default.currentDirectoryPath,
        output: StandardStreams()))
exit(status)
