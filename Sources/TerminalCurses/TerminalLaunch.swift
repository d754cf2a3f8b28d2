import Foundation
import StoreKitValues
import StorefrontRuntime
import StorefrontUI
import Synchronization
import SystemIO

/// The terminal taken over on the event loop's own thread while the caller is still computing
/// the first state: `init` starts the thread, which sets up ncurses (the locale, terminfo, the
/// alternate screen, the keys) on the machine's other core; `run` then hands the loop that
/// state, or `cancel` gives the terminal back unused (when the state cannot be computed).
///
/// Call one of `run` and `cancel`, once. A launch dropped without either gives the terminal
/// back too, on its thread.
public final class TerminalLaunch: Sendable {
    /// What the thread does once the terminal is set up.
    private enum Order: Sendable {
        case run(@Sendable (Result<Terminal, TerminalError>) -> Void)
        case cancel(@Sendable () -> Void)
    }

    /// The order handed to the thread, and the signal that it is there.
    private final class Mailbox: Sendable {
        let order = Mutex<Order?>(nil)
        let posted = DispatchSemaphore(value: 0)

        /// Hands `order` to the thread, unless one was handed already (then returns false).
        @discardableResult
        func post(_ order: Order) -> Bool {
            let first = self.order.withLock { slot in
                guard slot == nil else { return false }
                slot = order
                return true
            }
            if first { posted.signal() }
            return first
        }
    }

    private let mailbox = Mailbox()

    /// Starts the event loop's thread, which takes over the terminal at once.
    public init() {
        let mailbox = mailbox
        // The loop blocks a thread in poll(2), so it gets its own rather than a task's.
        let thread = Thread {
            let terminal = Result<Terminal, TerminalError> { () throws(TerminalError) in try Terminal() }
            mailbox.posted.wait()
            switch mailbox.order.withLock({ $0 }) {
            case .run(let loop):
                loop(terminal)
            case .cancel(let done):
                if case .success(let taken) = terminal { taken.stop() }
                done()
            case nil:
                break
            }
        }
        thread.name = "storefront-ui"
        thread.start()
    }

    deinit {
        mailbox.post(.cancel({}))
    }

    /// Runs the event loop on the terminal from `initial` until the user quits (or
    /// SIGINT/SIGTERM/SIGHUP), cancels every effect still running, then restores the terminal.
    /// - Parameters:
    ///   - initial: the state to start from (its size is replaced by the terminal's).
    ///   - handler: runs effects against the engine.
    ///   - clock: the time of `.tick` actions, and what periodic effects sleep on.
    ///   - afterFirstFrame: called once the first frame is on the terminal (work that can
    ///     wait for it starts there, rather than competing with it for the CPU).
    /// - Returns: the state the app ended in (its `exitStatus` says how it ended).
    /// - Throws: `TerminalError` when there is no usable terminal (nothing was changed then).
    public func run(
        initial: State, handler: some EffectHandler, clock: any StoreClock = SystemClock(),
        afterFirstFrame: (@Sendable () -> Void)? = nil
    ) async throws(TerminalError) -> State {
        let outcome: Result<State, TerminalError> = await withCheckedContinuation { continuation in
            let posted = mailbox.post(
                .run { terminal in
                    continuation.resume(
                        returning: TerminalApp.loop(
                            terminal, initial: initial, handler: handler, clock: clock, afterFirstFrame: afterFirstFrame
                        ))
                })
            // After `cancel` the terminal is gone: as when there is none.
            if !posted {
                afterFirstFrame?()
                continuation.resume(returning: .failure(.notATerminal))
            }
        }
        return try outcome.get()
    }

    /// Gives the terminal back as it was, without drawing; returns once it is back.
    public func cancel() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // A second order (after `run`) has nothing to wait for.
            if !mailbox.post(.cancel { continuation.resume() }) { continuation.resume() }
        }
    }
}
