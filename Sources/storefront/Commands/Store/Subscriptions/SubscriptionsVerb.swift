import LocalAppStore

/// `storefront store subscriptions`: every auto-renewable subscription of the account and its
/// state, after the store has caught up with the clock.
struct SubscriptionsVerb: Verb {
    let name = "subscriptions"
    let abstract = """
        every auto-renewable subscription: period end, auto-renew, next product, billing retry or grace, \
        expiry and its intent
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let (_, _, backend) = try await StoreSession.openBackend(call.invocation, context: call.context)
        await backend.synchronize()
        let all: [SubscriptionLifecycle]
        do {
            all = try await backend.subscriptions.all()
        } catch {
            throw .runtime(error.description)
        }
        call.write(
            json: .array(all.map(SubscriptionOutput.json)),
            lines: all.isEmpty
                ? ["No subscriptions."] : SubscriptionOutput.table(all, now: backend.configuration.clock.now))
    }
}
