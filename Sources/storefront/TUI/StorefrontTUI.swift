import Catalog
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
        if invocation.global.storefront == nil, invocation.global.locale == nil, let remembered = preferences.load(),
           Storefront.named(remembered.storefront) != nil {
            invocation.global.storefront = remembered.storefront
            invocation.global.locale = remembered.locale
        }
        let session = try await StoreSession.open(invocation, context: context, verifiesAppTransaction: true)
        let effects = StorefrontEffects(session: session, preferences: preferences)
        // The first frame shows the products: they are loaded before the terminal is taken
        // (the start-up loads that `.started` asks for refresh them a moment later).
        var initial = State()
        _ = reduce(state: &initial, action: .contextLoaded(.success(await effects.context())))
        _ = reduce(state: &initial, action: .productsLoaded(await effects.products()))
        // Their effects were not run: the loop's first reduce asks for the animation anew.
        initial.animationInterval = nil
        let final: State
        do {
            // One clock for everything: the store's (the system clock outside tests).
            final = try await TerminalApp.run(initial: initial, handler: effects, clock: session.backend.configuration.clock)
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
