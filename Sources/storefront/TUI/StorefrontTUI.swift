import Catalog
import Foundation
import LocalAppStore
import StoreCore
import StorefrontEffects
import StorefrontUI
import SystemIO
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
        // Signing in to another account (the Accounts window) opens the storefront again on it.
        while true {
            let (status, account) = try await runOnce(invocation, context: context)
            guard let account else { return status }
            invocation.global.account = account
        }
    }

    /// One run of the storefront on the command's account, until the user quits or signs in to
    /// another account.
    /// - Returns: the exit status, and the account signed in to when that ended the run.
    private static func runOnce(
        _ invocation: Invocation, context: CommandContext
    ) async throws(CLIError) -> (Int32, String?) {
        var invocation = invocation
        let dataDirectory = try DataDirectory.resolve(
            option: invocation.global.dataDirectory, environment: context.environment,
            currentDirectory: context.currentDirectory)
        let preferences = TUIPreferences(dataDirectory: URL(fileURLWithPath: dataDirectory, isDirectory: true))
        if invocation.global.storefront == nil, invocation.global.locale == nil, let remembered = preferences.load(),
            Storefront.named(remembered.storefront) != nil
        {
            invocation.global.storefront = remembered.storefront
            invocation.global.storefrontOrigin = "the storefront's last session"
            invocation.global.locale = remembered.locale
        }
        let dataURL = URL(fileURLWithPath: dataDirectory, isDirectory: true)
        let asksForPassphrase = VaultLedger.asksForPassphrase(
            inDataDirectory: dataURL, environment: context.environment)
        // While this thread loads the catalog, the other core sets up the terminal (the locale,
        // terminfo, the alternate screen) and pays the first frame's first-use costs (ICU's
        // first price format, the first reduce and render: `FirstFrameWarmUp`). A vault that asks for its passphrase at the terminal is opened before the
        // terminal is taken, as it needs it.
        let guess = invocation.global.storefront.flatMap(Storefront.named) ?? Storefront.unitedStates
        FirstFrameWarmUp.start(storefront: guess, locale: invocation.global.locale ?? guess.locale)
        var launch: TerminalLaunch? = asksForPassphrase ? nil : TerminalLaunch()
        // The first frame needs the products, not the hosted content's files: the store's
        // opening checks those (its own load of the catalog), on the other core.
        // The catalog's warnings are told once the terminal is given back (`afterTerminal`).
        let quiet = CommandContext(
            environment: context.environment, currentDirectory: context.currentDirectory, output: BufferedOutput())
        let selection: CatalogSelection
        do {
            selection = try CatalogSelection.load(invocation.global, context: quiet, contentFiles: .manifestsOnly)
        } catch {
            // The terminal is given back before the message is printed.
            await launch?.cancel()
            throw error
        }
        // The store (the journal, the vault, the engine's start, the app transaction's chain)
        // opens once the first frame, drawn from the catalog alone, is on the terminal.
        // Opening reads only the context's environment and directory; its output is not the terminal's.
        nonisolated(unsafe) let openingContext = quiet
        let open: @Sendable () async -> Result<StoreSession, CLIError> = { [invocation] in
            do throws(CLIError) {
                return .success(
                    try await StoreSession.open(invocation, context: openingContext, verifiesAppTransaction: true))
            } catch {
                return .failure(error)
            }
        }
        let handler: DeferredEffects
        if asksForPassphrase {
            let opened = await open()
            if case .failure(let error) = opened { throw error }
            handler = DeferredEffects(preferences: preferences) { opened }
            handler.start()
            launch = TerminalLaunch()
        } else {
            handler = DeferredEffects(preferences: preferences, open)
        }
        // The products as the store will load them (the start-up loads that `.started` asks
        // for refresh them, and everything else, once it is open).
        var initial = State()
        _ = reduce(
            state: &initial,
            action: .contextLoaded(
                .success(
                    SessionStore.context(
                        catalog: selection.catalog, storefront: selection.storefront, locale: selection.locale,
                        account: firstFrameAccount(invocation, dataDirectory: dataURL)))))
        _ = reduce(
            state: &initial,
            action: .catalog(
                .productsLoaded(
                    .success(
                        LocalAppStore.localizedProducts(
                            of: selection.catalog, storefront: selection.storefront, locale: selection.locale)))))
        // Their effects were not run: the loop's first reduce asks for the animation anew.
        initial.animationInterval = nil
        let final: State
        do {
            // One clock for everything: the store's (the system clock outside tests).
            final = try await (launch ?? TerminalLaunch()).run(
                initial: initial, handler: handler, clock: SystemClock(),
                afterFirstFrame: { [handler] in handler.start() })
        } catch {
            if case .success(let session) = await handler.opening.value { await session.close() }
            throw .runtime(error.description)
        }
        for warning in selection.warnings { context.output.writeError("storefront: warning: \(warning)\n") }
        switch await handler.opening.value {
        case .success(let session):
            await session.close()
            return (final.exitStatus, final.accounts.signingInTo)
        case .failure(let error):
            throw error
        }
    }

    /// The account the first frame names before the store opens: its ID (the store then says
    /// its name), or the default account's name.
    private static func firstFrameAccount(_ invocation: Invocation, dataDirectory: URL) -> String {
        let id = try? SignedInAccount.id(
            option: invocation.global.account, dataDirectory: dataDirectory, fileSystem: POSIXFileSystem())
        return id.flatMap { $0 == StoreAccount.localTester.id ? nil : $0 } ?? StoreAccount.localTester.displayName
    }

    /// What `storefront` says instead when standard input or output is not a terminal.
    static let needsTerminal = "storefront: " + TerminalError.notATerminal.description + "\n"
}
