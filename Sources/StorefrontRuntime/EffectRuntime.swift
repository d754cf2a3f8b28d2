import StoreKitValues
import StorefrontUI
import Synchronization
import SystemIO

/// Runs the effects `reduce` returns, as swift-composable-architecture's store and
/// bubbletea's program do: each on a task the runtime owns and keeps, long-running and
/// periodic ones keyed by their `EffectID`.
///
/// An effect with an identity replaces (cancels) the running one with the same identity;
/// `.cancel(id)` stops one; `.quit` (or `stop()`) cancels every task and starts no more.
/// Actions a cancelled effect sends afterwards are dropped. Periodic effects (`.every`)
/// sleep on the injected clock, so a test with a `ManualClock` drives them without real time.
public final class EffectRuntime: Sendable {
    private struct Running {
        let task: Task<Void, Never>
        let id: EffectID?
        var isCancelled = false
    }

    /// What a waiter waits for: no task at all, or no cancelled task.
    private enum Quiet {
        case idle, noCancelled
    }

    private struct Tasks {
        var nextToken: UInt64 = 0
        var waiters = Waitlist<Quiet>()
        /// Every task that has not ended yet, cancelled ones included, by token.
        var running: [UInt64: Running] = [:]
        /// The live (not cancelled) task of each identity.
        var byID: [EffectID: UInt64] = [:]
        var isStopped = false

        /// Marks the live task of `id` cancelled and forgets its identity; returns it to cancel.
        mutating func takeLive(_ id: EffectID) -> Task<Void, Never>? {
            guard let token = byID.removeValue(forKey: id) else { return nil }
            running[token]?.isCancelled = true
            return running[token]?.task
        }

        func isQuiet(_ quiet: Quiet) -> Bool {
            switch quiet {
            case .idle: running.isEmpty
            case .noCancelled: !running.values.contains { $0.isCancelled }
            }
        }

        /// Takes the waiters whose wait is over.
        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let (idle, noCancelled) = (isQuiet(.idle), isQuiet(.noCancelled))
            return waiters.take { $0 == .idle ? idle : noCancelled }
        }
    }

    private let tasks = Mutex(Tasks())
    private let handler: any EffectHandler
    private let clock: any StoreClock
    private let send: @Sendable (Action) -> Void

    /// Makes a runtime that runs nothing yet.
    /// - Parameters:
    ///   - handler: runs the effects that touch the world.
    ///   - clock: what periodic effects sleep on, and the time of `.tick`.
    ///   - send: delivers actions to the event loop, from any thread.
    public init(handler: some EffectHandler, clock: any StoreClock, send: @escaping @Sendable (Action) -> Void) {
        self.handler = handler
        self.clock = clock
        self.send = send
    }

    /// Starts `effect` on its own task, or cancels what it names (`.cancel`, `.quit`).
    /// Returns at once; nothing starts once the runtime is stopped.
    public func run(_ effect: Effect) {
        switch effect {
        case .quit:
            stop()
        case .cancel(let id):
            tasks.withLock { $0.takeLive(id) }?.cancel()
        default:
            start(effect)
        }
    }

    /// Cancels every running effect and starts no more (what `.quit` does).
    public func stop() {
        let all = tasks.withLock { tasks -> [Task<Void, Never>] in
            tasks.isStopped = true
            tasks.byID.removeAll()
            for token in tasks.running.keys { tasks.running[token]?.isCancelled = true }
            return tasks.running.values.map(\.task)
        }
        for task in all { task.cancel() }
    }

    /// The identities of the long-running and periodic effects now running (not cancelled).
    public var runningIDs: Set<EffectID> { tasks.withLock { Set($0.byID.keys) } }

    /// Waits until every task has ended, cancelled ones included (or the waiting task is
    /// cancelled).
    public func waitUntilIdle() async {
        await wait(until: .idle)
    }

    /// Waits until every cancelled task has ended; the live ones keep running (or the waiting
    /// task is cancelled).
    public func waitForCancelledTasks() async {
        await wait(until: .noCancelled)
    }

    private func wait(until quiet: Quiet) async {
        await tasks.wait(on: \.waiters, for: quiet) { $0.isQuiet(quiet) }
    }

    private func start(_ effect: Effect) {
        let replaced = tasks.withLock { tasks -> Task<Void, Never>? in
            guard !tasks.isStopped else { return nil }
            let token = tasks.nextToken
            tasks.nextToken &+= 1
            let replaced = effect.id.flatMap { tasks.takeLive($0) }
            // The task may start at once, but it cannot end (or send) before it is recorded:
            // both take this lock.
            let task = Task { [self] in
                await perform(effect, token: token)
                ended(token)
            }
            tasks.running[token] = Running(task: task, id: effect.id)
            if let id = effect.id { tasks.byID[id] = token }
            return replaced
        }
        // Outside the lock: a cancellation handler may send, which takes it.
        replaced?.cancel()
    }

    private func ended(_ token: UInt64) {
        let satisfied = tasks.withLock { tasks -> [CheckedContinuation<Void, Never>] in
            guard let ended = tasks.running.removeValue(forKey: token) else { return [] }
            if let id = ended.id, tasks.byID[id] == token { tasks.byID[id] = nil }
            return tasks.takeSatisfiedWaiters()
        }
        for waiter in satisfied { waiter.resume() }
    }

    private func isLive(_ token: UInt64) -> Bool {
        tasks.withLock { $0.running[token].map { !$0.isCancelled } ?? false }
    }

    private func perform(_ effect: Effect, token: UInt64) async {
        let send: @Sendable (Action) -> Void = { [self] action in
            if isLive(token) { self.send(action) }
        }
        switch effect {
        case .tick:
            send(.tick(clock.now))
        case .every(let interval, let repeated):
            while true {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                guard !Task.isCancelled else { return }
                await perform(repeated, token: token)
            }
        case .cancel, .quit:
            // Only meaningful as effects of their own (`run` handles them).
            break
        default:
            await handler.perform(effect, send: send)
        }
    }
}
