import LocalAppStore
import StoreCore

/// `storefront store cancel ID [--undo]`: auto-renew off (or on again).
struct CancelVerb: RecordedChange {
    let name = "cancel"
    let abstract = "turn auto-renew off (access continues to the end of the period); --undo turns it back on"
    var options: [any CommandOption] { [Self.undo] }

    /// `--undo`.
    static let undo = Flag("undo", help: "store cancel: turn auto-renew back on.")

    func change(_ store: LocalAppStore, _ call: VerbCall) async throws -> Transaction? {
        try await store.subscriptions.setAutoRenew(call.arguments[0], on: call.isSet(Self.undo))
    }

    func message(_ latest: Transaction, _ subscription: SubscriptionLifecycle?, _ call: VerbCall) -> String {
        let what = RecordedChanges.what(latest)
        if call.isSet(Self.undo) {
            return "Auto-renew is on again for subscription \(what): it renews at \(RecordedChanges.end(latest))."
        }
        if let s = subscription, s.isInCommitment, let commitment = s.billing?.commitment {
            let left = commitment.totalBillingPeriods - commitment.billingPeriodNumber
            return "Cancelled subscription \(what): it does not renew when its 12-month commitment ends at "
                + "\(TransactionOutput.date(commitment.expiresDate)); the \(left) payments left of it are still billed."
        }
        if subscription?.billingRetryStart != nil {
            return "Cancelled subscription \(what): auto-renew is off; it is in billing retry, so it ends when "
                + "billing retry does, or at once when the billing issue is resolved."
        }
        return
            "Cancelled subscription \(what): auto-renew is off, access continues until \(RecordedChanges.end(latest))."
    }
}
