import LocalAppStore
import StoreCore

/// `storefront store renew ID`: a subscription renews now, or its renewal fails while billing does.
struct RenewVerb: RecordedChange {
    let name = "renew"
    let abstract = """
        renew a subscription now: a new period and a new transaction with the same original transaction ID; \
        while billing fails (billing-issue on, or the billing-retry setting) the renewal fails instead: the \
        period ends now and billing retry begins (in grace, when the grace-period setting is on); refused \
        while auto-renew is off (cancel ID --undo turns it back on)
        """

    func change(_ store: LocalAppStore, _ call: VerbCall) async throws -> Transaction? {
        try await store.subscriptions.renew(call.arguments[0])
    }

    func message(_ latest: Transaction, _ subscription: SubscriptionLifecycle?, _ call: VerbCall) -> String {
        let what = RecordedChanges.what(latest)
        guard let retry = subscription?.billingRetryStart else {
            return
                "Renewed subscription \(what): new transaction \(latest.transactionID), expires \(RecordedChanges.end(latest))."
        }
        let grace =
            subscription?.graceEnd.map { ", in a grace period until \(TransactionOutput.date($0))" }
            ?? " (no grace period)"
        return "The renewal of subscription \(what) failed (billing issue): billing retry since "
            + "\(TransactionOutput.date(retry))\(grace). 'storefront store billing-issue \(latest.originalTransactionID) off' resolves it."
    }
}
