/// The engine's one way to its `PurchaseLedger`: every ledger call goes through `perform`,
/// typed and awaited, so where the calls run is decided here, once
/// (Docs/decisions/0071-one-door-to-the-ledger.md).
///
/// Today `perform` runs the call on the caller's executor, the `Store` actor's: a ledger call
/// does not suspend, so a pipeline step that records a transaction runs to its end before the
/// actor takes another caller, as the engine's status reports and `Store.synchronize()` need
/// until they stop relying on it (the decision says how).
final class LedgerAccess: Sendable {
    /// The ledger the calls go to.
    let ledger: any PurchaseLedger

    /// Calls `ledger` through `perform`.
    init(_ ledger: any PurchaseLedger) {
        self.ledger = ledger
    }

    /// Runs `body` with the ledger on the caller's executor and returns what it returns.
    /// - Throws: what `body` throws, the ledger's error.
    func perform<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (any PurchaseLedger) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try body(ledger)
    }
}
