/// The `purchase` calls of this process waiting for their outcome, by `Payment.requestID`.
///
/// Each waiter is resumed once: by the first outcome the pipeline reports for its payment
/// (delivered, pending, cancelled, failed), or by the backend refusing the payment. Later
/// outcomes for the same payment find no waiter and go to observers and streams only. The
/// owner (the `Store` actor) serializes calls.
struct PurchaseWaiters {
    private var waiting: [String: CheckedContinuation<PurchaseResult, Never>] = [:]

    /// Waits for the outcome of the payment `requestID`.
    mutating func add(_ requestID: String, _ continuation: CheckedContinuation<PurchaseResult, Never>) {
        waiting[requestID] = continuation
    }

    /// Whether a `purchase` call waits for the payment `requestID`.
    func isWaiting(for requestID: String) -> Bool {
        waiting[requestID] != nil
    }

    /// Resumes the call waiting for the payment `requestID` with `result`, if one waits.
    mutating func resume(_ requestID: String, with result: PurchaseResult) {
        waiting.removeValue(forKey: requestID)?.resume(returning: result)
    }
}
