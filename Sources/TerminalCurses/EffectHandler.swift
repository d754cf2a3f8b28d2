import StorefrontUI

/// Runs the storefront's effects against the world (the engine, the local App Store) and
/// sends their results back as actions. The `storefront` executable implements it.
public protocol EffectHandler: Sendable {
    /// Called once before the first action: subscribe to store events and send them as actions.
    /// - Parameter send: delivers an action to the event loop, from any thread.
    func start(send: @escaping @Sendable (Action) -> Void) async

    /// Runs one effect (never `.quit`, which the runtime handles) and sends its result.
    /// - Parameters:
    ///   - effect: the work to do.
    ///   - send: delivers an action to the event loop, from any thread.
    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async
}
