/// Names a long-running or periodic effect, so the runtime can cancel or replace it
/// (`Effect.cancel(_:)`), as swift-composable-architecture's `cancellable(id:)` does.
public enum EffectID: Hashable, Sendable {
    /// The engine's event subscription (`Effect.observeStore`).
    case storeEvents
    /// Following other processes' changes to the shared store (`Effect.watchStore`).
    case storeWatch
    /// Following one download for its purchase sheet (`Effect.followDownload`).
    case download(id: String)
    /// The schedule repeating an effect (`Effect.every(_:_:)`).
    indirect case every(Effect)

    /// The animation ticks, while something on screen moves.
    public static let animation = EffectID.every(.tick)
}
