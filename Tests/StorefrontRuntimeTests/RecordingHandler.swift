import StorefrontRuntime
import StorefrontUI

/// An effect handler that records what it is asked to do. The effects in `untilCancelled`
/// run until their task is cancelled, as the engine subscription does; then they record the
/// cancellation and send an action, which the runtime must drop. The others send
/// `.storeChanged` at once.
final class RecordingHandler: EffectHandler {
    let performed = Recorder<Effect>()
    let cancelled = Recorder<Effect>()
    private let untilCancelled: @Sendable (Effect) -> Bool

    init(untilCancelled: @escaping @Sendable (Effect) -> Bool = { _ in false }) {
        self.untilCancelled = untilCancelled
    }

    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async {
        performed.append(effect)
        guard untilCancelled(effect) else {
            send(.storeChanged)
            return
        }
        await Self.waitForCancellation()
        cancelled.append(effect)
        send(.storeChanged)
    }

    /// Suspends until the current task is cancelled: a stream nobody feeds ends then.
    private static func waitForCancellation() async {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        for await _ in stream {}
        withExtendedLifetime(continuation) {}
    }
}
