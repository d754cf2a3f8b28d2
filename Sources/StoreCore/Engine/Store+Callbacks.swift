/// The closure-shaped twins of the async API (RMStore's `success:failure:`), all through one body.
extension Store {
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
