import StorefrontUI

/// Runs the storefront's effects against the world (the engine, the local App Store) and
/// sends their results back as actions. The `storefront` executable implements it; tests
/// implement a recording one.
///
/// The runtime calls it on a task it owns, one task per effect, and cancels that task when
/// the effect is cancelled, replaced or the app quits: long-running effects (`.observeStore`,
/// `.followDownload`) should end when cancelled. It never passes the effects the runtime runs
/// itself (`.every`, `.tick`, `.cancel`, `.quit`).
public protocol EffectHandler: Sendable {
    /// Runs one effect and sends its results.
    /// - Parameters:
    ///   - effect: the work to do.
    ///   - send: delivers an action to the event loop, from any thread. The runtime drops
    ///     what a cancelled effect sends.
    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async
}
