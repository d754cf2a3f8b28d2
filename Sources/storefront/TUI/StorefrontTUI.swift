import Foundation
import StorefrontUI
import TerminalCurses

/// `storefront` with no command on a terminal: the full-screen storefront.
enum StorefrontTUI {
    /// Whether the storefront can take over this process's terminal.
    static var isAvailable: Bool { Terminal.isInteractive }

    /// Opens the engine on the data directory and runs the storefront until the user quits.
    /// - Throws: `CLIError.runtime` when the store cannot be opened or there is no terminal.
    static func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        let session = try await StoreSession.open(invocation, context: context, verifiesAppTransaction: true)
        do {
            // One clock for everything: the store's (the system clock outside tests).
            try await TerminalApp.run(handler: StorefrontEffects(session: session), clock: session.backend.configuration.clock)
        } catch {
            await session.close()
            throw .runtime(error.description)
        }
        await session.close()
    }

    /// What `storefront` says instead when standard input or output is not a terminal.
    static let needsTerminal = TerminalError.notATerminal.description + "\n"
}
