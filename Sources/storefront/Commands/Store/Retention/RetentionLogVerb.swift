import LocalAppStore

/// `storefront store retention-log`: the Get Retention Message exchanges the store made when a
/// customer began to cancel (`storefront cancel`), oldest first.
struct RetentionLogVerb: Verb {
    let name = "retention-log"
    let abstract = """
        the Get Retention Message exchanges, oldest first: the request, the answer, what the customer was \
        shown (or why the default message was) and what they chose ('storefront cancel' makes them)
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let retention = try await call.store { $0.retention }
        let log: [RealtimeExchange]
        do {
            log = try retention.state().exchanges
        } catch {
            throw .runtime(error.description)
        }
        call.write(
            json: .array(log.map(RetentionOutput.json)),
            lines: log.isEmpty ? ["No realtime exchanges."] : log.map(RetentionOutput.line))
    }
}
