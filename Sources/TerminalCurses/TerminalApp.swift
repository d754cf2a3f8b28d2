import Foundation
import StorefrontUI

/// The storefront's runtime, in the shape of bubbletea's program: an event loop that feeds
/// keys, resizes, ticks and effect results to `reduce`, draws `render(state)` through the
/// ncurses backend (only changed cells), and runs the returned effects on tasks.
///
/// The loop blocks in `poll(2)` until a key, a resize, a result or the next tick that the
/// state asks for (`State.tickInterval`); with nothing moving it sleeps indefinitely, so an
/// idle storefront uses no CPU.
public enum TerminalApp {
    /// Takes over the terminal, runs until the user quits (or SIGINT/SIGTERM/SIGHUP), then
    /// restores the terminal.
    /// - Parameters:
    ///   - initial: the state to start from (its size is replaced by the terminal's).
    ///   - handler: runs effects against the engine.
    ///   - now: the clock for `.tick` actions.
    /// - Throws: `TerminalError` when there is no usable terminal (nothing was changed then).
    public static func run(
        initial: State = State(), handler: some EffectHandler,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws(TerminalError) {
        // The loop blocks a thread in poll(2), so it gets its own rather than a task's.
        let outcome: Result<Void, TerminalError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: loop(initial: initial, handler: handler, now: now))
            }
            thread.name = "storefront-ui"
            thread.start()
        }
        try outcome.get()
    }

    private static func loop(initial: State, handler: some EffectHandler, now: @escaping @Sendable () -> Date) -> Result<Void, TerminalError> {
        let terminal: Terminal
        do {
            terminal = try Terminal()
        } catch {
            return .failure(error)
        }
        defer { terminal.stop() }
        let inbox = ActionInbox(waker: terminal.waker)
        let send: @Sendable (Action) -> Void = { inbox.post($0) }
        Task.detached { await handler.start(send: send) }

        var state = initial
        let size = terminal.size
        var pending: [Action] = [.tick(now()), .resize(width: size.width, height: size.height), .started]
        while true {
            var quit = false
            for action in pending {
                for effect in reduce(state: &state, action: action) {
                    if effect == .quit {
                        quit = true
                    } else {
                        Task.detached { await handler.perform(effect, send: send) }
                    }
                }
            }
            if quit || state.isQuitting { return .success(()) }
            terminal.draw(render(state))
            let events = terminal.waitForEvents(timeoutMilliseconds: state.tickInterval)
            pending = [.tick(now())]
            if events.resized {
                let size = terminal.size
                pending.append(.resize(width: size.width, height: size.height))
            }
            pending += events.keys.map { .key($0) }
            pending += inbox.drain()
            if events.quitRequested { pending.append(.key(.control("c"))) }
        }
    }
}
