/// How a request to the backend reports its outcome: as an event for observers, and for the
/// closure-shaped twins of the async API (RMStore's `success:failure:`) as a call; each
/// through one body.
extension Store {
    /// Runs `operation` and sends `failed` with its error, or `finished` with its value.
    func announcing<Value>(
        finished: (Value) -> StoreEvent, failed: (StoreError) -> StoreEvent,
        _ operation: () async throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        let value: Value
        do {
            value = try await operation()
        } catch {
            broadcaster.send(failed(error))
            throw error
        }
        broadcaster.send(finished(value))
        return value
    }

    /// Runs `operation` in a task and hands its value to `success`, or its error to `failure`.
    nonisolated func callingBack<Value: Sendable>(
        success: @escaping @Sendable (Value) -> Void, failure: @escaping @Sendable (StoreError) -> Void,
        _ operation: @escaping @Sendable () async throws(StoreError) -> Value
    ) {
        Task {
            do throws(StoreError) {
                success(try await operation())
            } catch {
                failure(error)
            }
        }
    }
}
