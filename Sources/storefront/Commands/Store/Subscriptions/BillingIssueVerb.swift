import LocalAppStore
import StoreCore

/// `storefront store billing-issue ID on|off`: renewals fail from now on, or the issue is resolved.
struct BillingIssueVerb: RecordedChange {
    let name = "billing-issue"
    let arguments = [Argument("ID"), Argument("on|off", parse: onOff)]
    let abstract = """
        'on': renewals fail and enter billing retry (and grace, when the grace-period setting is on); 'off': \
        resolved, a subscription in billing retry renews at once
        """

    /// `on` or `off`, read by the settings' one on/off parser.
    static func onOff(_ text: String) throws(CLIError) -> Bool {
        guard let on = SettingValues.onOff.parse(text) else {
            throw .usage("invalid billing-issue value '\(text)': use on or off.")
        }
        return on
    }

    func change(_ store: LocalAppStore, _ call: VerbCall) async throws -> Transaction? {
        try await store.subscriptions.setBillingIssue(call.arguments[0], on: Self.onOff(call.arguments[1]))
    }

    func message(_ latest: Transaction, _ subscription: SubscriptionLifecycle?, _ call: VerbCall) -> String {
        let what = RecordedChanges.what(latest)
        if let ended = subscription?.expiration {
            return "No billing issue for subscription \(what); it had been cancelled, so it ended at "
                + "\(TransactionOutput.date(ended.date)) instead of renewing."
        }
        return subscription?.hasBillingIssue == true
            ? "Billing issue on for subscription \(what): its next renewal fails and enters billing retry."
            : "No billing issue for subscription \(what): current transaction \(latest.transactionID), expires \(RecordedChanges.end(latest))."
    }
}
