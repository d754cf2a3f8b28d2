import LocalAppStore

extension VerbCall {
    /// Opens the local App Store alone (the Transaction Manager needs no engine) and runs `body`
    /// on it.
    /// - Throws: `CLIError.runtime` when the store cannot be opened, or with the store's own
    ///   words when it refuses (an unknown ID, a purchase that is not pending).
    func store<T>(_ body: (LocalAppStore) async throws -> T) async throws(CLIError) -> T {
        let (_, _, backend) = try await StoreSession.openBackend(invocation, context: context)
        do {
            return try await body(backend)
        } catch {
            throw CLIError(error)
        }
    }
}
