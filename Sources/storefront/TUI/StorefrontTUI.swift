import Foundation
import StorefrontUI
import TerminalCurses

/// `storefront` with no command on a terminal: the full-screen storefront.
enum StorefrontTUI {
    /// Whether the storefront can take over this process's terminal.
    static var isAvailable: Bool { Terminal.isInteractive }

    /// Opens the engine on the data directory and runs the storefront until the user quits.
    /// The storefront and language last chosen open again unless `--storefront` or
    /// `--locale` says otherwise.
    /// - Returns: the exit status: 0, or 128 + the signal's number when one ended it.
    /// - Throws: `CLIError.runtime` when the store cannot be opened or there is no terminal.
    static func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) -> Int32 {
        var invocation = invocation
        let dataDirectory = try DataDirectory.resolve(
            option: invocation.global.dataDirectory, environment: context.environment, currentDirectory: context.currentDirectory)
        let preferences = TUIPreferences(dataDirectory: URL(fileURLWithPath: dataDirectory, isDirectory: true))
        if invocation.global.storefront == nil, invocation.global.locale == nil, let remembered = preferences.load() {
            invocation.global.storefront = remembered.storefront
            invocation.global.locale = remembered.locale
        }
        let session = try await StoreSession.open(invocation, context: context)
        let final: State
        do {
            // One clock for everything: the store's (the system clock outside tests).
            final = try await TerminalApp.run(
                handler: StorefrontEffects(session: session, preferences: preferences), clock: session.backend.configuration.clock)
        } catch {
            await session.close()
            throw .runtime(error.description)
        }
        await session.close()
        return final.exitStatus
    }

    /// What `storefront` says instead when standard input or output is not a terminal.
    static let needsTerminal = TerminalError.notATerminal.description + "\n"
}
