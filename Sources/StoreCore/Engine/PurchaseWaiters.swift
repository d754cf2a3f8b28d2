/// The `purchase` calls of this process waiting for their outcome, by `Payment.requestID`.
///
/// Each waiter is resumed once: by the first outcome the pipeline reports for its payment
/// (delivered, pending, unverified, cancelled, failed), by the backend refusing the payment,
/// or by the cancellation of its task. Later outcomes for the same payment find no waiter and
/// go to observers and streams only. The owner (the `Store` actor) serializes calls.
struct PurchaseWaiters {
    private struct Waiter {
        let continuation: CheckedContinuation<PurchaseResult, Never>
        /// The transaction the backend queued for the payment, once `add` returned it.
        var queued: Transaction?
        /// The delivered transaction, while the caller waits for its content to install.
        var awaitingContent: Transaction?
    }

    private var waiting: [String: Waiter] = [:]

    /// Waits for the outcome of the payment `requestID`.
    mutating func add(_ requestID: String, _ continuation: CheckedContinuation<PurchaseResult, Never>) {
        waiting[requestID] = Waiter(continuation: continuation)
    }

    /// Whether a `purchase` call waits for the payment `requestID`.
    func isWaiting(for requestID: String) -> Bool {
        waiting[requestID] != nil
    }

    /// Notes the transaction the backend queued for the payment `requestID`.
    mutating func noteQueued(_ requestID: String, _ transaction: Transaction) {
        waiting[requestID]?.queued = transaction
    }

    /// Notes that the payment `requestID` is delivered and its caller waits for the content.
    mutating func noteAwaitingContent(_ requestID: String, _ transaction: Transaction) {
        waiting[requestID]?.awaitingContent = transaction
    }

    /// Resumes the call waiting for the payment `requestID` with `result`, if one waits.
    mutating func resume(_ requestID: String, with result: PurchaseResult) {
        waiting.removeValue(forKey: requestID)?.continuation.resume(returning: result)
    }

    /// Resumes the call waiting for the payment `requestID` with `.taskCancelled`, if one
    /// waits.
    /// - Returns: the delivered transaction the caller was waiting on for content, which no
    ///   one has been told of as an update yet.
    mutating func cancel(_ requestID: String) -> Transaction? {
        guard let waiter = waiting.removeValue(forKey: requestID) else { return nil }
        waiter.continuation.resume(returning: .taskCancelled(waiter.awaitingContent ?? waiter.queued))
        return waiter.awaitingContent
    }
}
