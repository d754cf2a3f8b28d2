import Dispatch
import Synchronization

/// The engine's one way to its `PurchaseLedger`: every ledger call goes through `perform`,
/// typed and awaited, and runs on this access's own serial dispatch queue, off the `Store`
/// actor's executor (Docs/decisions/0071-one-door-to-the-ledger.md).
///
/// A ledger call blocks its thread on the disk (a vault write ends in `fdatasync`). Run on the
/// actor, it held the actor and one of Swift's few cooperative threads for as long; here a
/// dispatch thread waits instead, and the actor serves other callers meanwhile. Each pipeline
/// step awaits the previous one's durable return, so a transaction is recorded before it is
/// finished and a write acknowledged to the app is on disk. Calls run one at a time, in the
/// order they were made.
///
/// A point read (`lookUp`) runs in place when no call is queued or running: it ends in no
/// sync, and nothing is before it, so it costs neither the queue's two thread hand-offs nor
/// the order (Docs/decisions/0149-a-purchase-without-needless-hand-offs.md).
final class LedgerAccess: Sendable {
    /// The ledger the calls go to.
    let ledger: any PurchaseLedger
    private let queue = DispatchQueue(label: "storefront.ledger", qos: .userInitiated)
    /// The calls queued and not yet ended; a read in place runs holding it at zero, so no call
    /// is queued while it runs.
    private let queued = Mutex(0)

    /// Calls `ledger` through `perform`, on a queue of their own.
    init(_ ledger: any PurchaseLedger) {
        self.ledger = ledger
    }

    /// Runs `body` with the ledger on the queue and returns what it returns. The caller's
    /// cancellation does not stop it: a write that began completes.
    /// - Throws: what `body` throws, the ledger's error.
    func perform<T: Sendable>(
        _ body: @escaping @Sendable (any PurchaseLedger) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let ledger = self.ledger
        queued.withLock { $0 += 1 }
        let result: Result<T, LedgerError> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                let result = Result { () throws(LedgerError) -> T in try body(ledger) }
                queued.withLock { $0 -= 1 }
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    /// Runs `body`, a read of the ledger that looks up one thing (it must not write, nor read
    /// the whole history), in place when no call is queued or running, else as `perform` does.
    /// - Throws: what `body` throws, the ledger's error.
    func lookUp<T: Sendable>(
        _ body: @escaping @Sendable (any PurchaseLedger) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let ledger = self.ledger
        let inPlace: Result<T, LedgerError>? = queued.withLock { queued in
            guard queued == 0 else { return nil }
            return Result { () throws(LedgerError) -> T in try body(ledger) }
        }
        if let inPlace { return try inPlace.get() }
        return try await perform(body)
    }
}
