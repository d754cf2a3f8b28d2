import LocalAppStore
import StoreCore

/// `storefront store expire ID`: a subscription ends now.
struct ExpireVerb: RecordedChange {
    let name = "expire"
    let abstract = "end a subscription now (its current transaction expires at once)"

    func change(_ store: LocalAppStore, _ call: VerbCall) async throws -> Transaction? {
        try await store.subscriptions.expire(call.arguments[0])
    }

    func message(_ latest: Transaction, _ subscription: SubscriptionLifecycle?, _ call: VerbCall) -> String {
        "Expired subscription \(RecordedChanges.what(latest)) at \(RecordedChanges.end(latest))."
    }
}
