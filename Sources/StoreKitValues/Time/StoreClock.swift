import Foundation

/// The package's one source of time (the engine, the local store, the vault, the storefront),
/// injected so tests never sleep.
public protocol StoreClock: Sendable {
    /// The current date.
    var now: Date { get }
    /// Waits for `duration` of this clock's time.
    func sleep(for duration: Duration) async throws
    /// Waits until this clock reads `deadline` (at once when it already does).
    func sleep(until deadline: Date) async throws
}
