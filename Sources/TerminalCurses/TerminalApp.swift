import Foundation
import StoreKitValues
import StorefrontRuntime
import StorefrontUI
import SystemIO

/// The storefront's event loop, in the shape of bubbletea's program: feeds keys, resizes,
/// the time and effect results to `reduce`, draws `render(state)` through the ncurses
/// backend (only changed cells), and hands the returned effects to an `EffectRuntime`.
///
/// The loop blocks in `poll(2)` until a key, a resize, a signal or an action from an effect.
/// Animation ticks are an effect too (`.every(_, .tick)`, asked for by `reduce` only while
/// something moves), so an idle storefront sleeps and uses no CPU.
public enum TerminalApp {
    /// Takes over the terminal, runs until the user quits (or SIGINT/SIGTERM/SIGHUP), cancels
    /// every effect still running, then restores the terminal.
    /// - Parameters:
    ///   - initial: the state to start from (its size is replaced by the terminal's).
    ///   - handler: runs effects against the engine.
    ///   - clock: the time of `.tick` actions, and what periodic effects sleep on.
    ///   - afterFirstFrame: called once the first frame is on the terminal (work that can
    ///     wait for it starts there, rather than competing with it for the CPU).
    /// - Returns: the state the app ended in (its `exitStatus` says how it ended).
    /// - Throws: `TerminalError` when there is no usable terminal (nothing was changed then).
    @discardableResult
    public static func run(
        initial: State = State(), handler: some EffectHandler, clock: any StoreClock = SystemClock(),
        afterFirstFrame: (@Sendable () -> Void)? = nil
    ) async throws(TerminalError) -> State {
        try await TerminalLaunch().run(
            initial: initial, handler: handler, clock: clock, afterFirstFrame: afterFirstFrame)
    }

    /// The loop on the terminal `setUp` took over on this thread, until the app ends.
    static func loop(
        _ setUp: Result<Terminal, TerminalError>, initial: State, handler: some EffectHandler, clock: any StoreClock,
        afterFirstFrame: (@Sendable () -> Void)?
    ) -> Result<State, TerminalError> {
        var afterFirstFrame = afterFirstFrame
        let terminal: Terminal
        switch setUp {
        case .success(let taken):
            terminal = taken
        case .failure(let error):
            afterFirstFrame?()
            return .failure(error)
        }
        // However the loop ends, what waits for the first frame is not left waiting.
        defer { afterFirstFrame?() }
        defer { terminal.stop() }
        let inbox = ActionInbox(waker: terminal.waker)
        let runtime = EffectRuntime(handler: handler, clock: clock, send: { inbox.post($0) })
        // However the loop ends, no effect outlives it.
        defer { runtime.stop() }

        var state = initial
        let size = terminal.size
        var pending: [Action] = [.tick(clock.now), .resize(width: size.width, height: size.height), .started]
        while true {
            var effects: [Effect] = []
            for action in pending { effects += reduce(state: &state, action: action) }
            if effects.contains(.quit) || state.isQuitting {
                for effect in effects { runtime.run(effect) }
                return .success(state)
            }
            // The frame first, then the effects it asked for: starting them (tasks, their
            // first metadata) would only delay it, and what they send comes as later actions.
            terminal.draw(render(state))
            afterFirstFrame?()
            afterFirstFrame = nil
            for effect in effects { runtime.run(effect) }
            let events = terminal.waitForEvents(timeoutMilliseconds: nil)
            // One `.tick` a wake, with the time read here: an animation tick only wakes the
            // loop, so the spinner moves one step a frame however many ticks queued.
            pending = [.tick(clock.now)]
            if events.resized {
                let size = terminal.size
                pending.append(.resize(width: size.width, height: size.height))
            }
            pending += events.keys.map { .key($0) }
            pending += inbox.drain().filter { if case .tick = $0 { false } else { true } }
            if let signal = events.quitSignal { pending.append(.signal(signal)) }
        }
    }
}
