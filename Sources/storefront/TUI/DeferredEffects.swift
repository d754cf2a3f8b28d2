import Foundation
import StorefrontEffects
import StorefrontRuntime
import StorefrontUI
import Synchronization

/// The storefront's effects while its store is still opening: the first frame is drawn from
/// the catalog alone, the store (the journal, the vault, the engine's start) opens once it is
/// on the terminal (`start()`), and every effect waits here for the store before it runs.
///
/// The effects asked for before the store is open run in the order they were asked for, each
/// after the one before has finished (a long-running one, `.observeStore`, `.watchStore` or
/// `.followDownload`, once it has started): a key pressed while the store opens (a storefront
/// switch) acts after the start-up loads, as it would have had the store been open. When the
/// store cannot be opened, the loop is ended as a SIGTERM would end it, and `StorefrontTUI`
/// reports why once the terminal is back.
final class DeferredEffects: EffectHandler {
    /// The store being opened (or why it could not be opened).
    let opening: Task<Result<StoreSession, CLIError>, Never>
    /// The effects on the store, once it is open.
    private let effects: Task<StorefrontEffects?, Never>
    /// Whether `opening` has finished (effects asked for from then on run at once).
    private let isOpen = OpenFlag()
    /// The last effect asked for before the store opened: the next one's turn comes after it.
    private let last = Mutex<Task<Void, Never>?>(nil)

    /// Ends when `start()` is called: the opening waits for it.
    private let starting: AsyncStream<Void>.Continuation

    /// Opens the store with `open` once `start()` is called; its effects remember a storefront
    /// switch in `preferences`.
    init(preferences: TUIPreferences?, _ open: @escaping @Sendable () async -> Result<StoreSession, CLIError>) {
        let isOpen = isOpen
        let (started, starting) = AsyncStream<Void>.makeStream()
        self.starting = starting
        let opening = Task {
            for await _ in started {}
            let result = await open()
            isOpen.value.withLock { $0 = true }
            return result
        }
        self.opening = opening
        effects = Task {
            guard case .success(let session) = await opening.value else { return nil }
            return StorefrontEffects(store: SessionStore(session: session, preferences: preferences))
        }
    }

    /// Lets the store open (after the first frame; a second call does nothing).
    func start() {
        starting.finish()
    }

    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async {
        guard !isOpen.value.withLock({ $0 }) else { return await run(effect, send: send) }
        let (turnOver, ending) = AsyncStream<Void>.makeStream()
        let mine = Task { for await _ in turnOver {} }
        let previous = last.withLock { last in
            defer { last = mine }
            return last
        }
        defer { ending.finish() }
        await previous?.value
        switch effect {
        case .observeStore, .watchStore, .followDownload:
            ending.finish()
        default:
            break
        }
        await run(effect, send: send)
    }

    private func run(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async {
        if let effects = await effects.value {
            await effects.perform(effect, send: send)
        } else {
            send(.signal(SIGTERM))
        }
    }
}

/// A flag shared with the opening task.
private final class OpenFlag: Sendable {
    let value = Mutex(false)
}
