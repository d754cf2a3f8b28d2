import LocalAppStore
import StoreCore

/// `storefront store refund ID [--reason 0|1]`: the Transaction Manager refunds a transaction;
/// it is revoked now.
struct RefundVerb: RecordedChange {
    let name = "refund"
    let abstract = """
        refund a transaction: it is revoked now with --reason 0 (other, the default) or 1 (an issue in the \
        app); a subscription's period ends
        """
    var options: [any CommandOption] { [Self.reason] }

    /// `--reason 0|1` of `store refund` and `store approve-refund`: Apple's revocation reason.
    static let reason = Option<Int>(
        "reason", valueName: "0|1", help: "store refund, approve-refund: 0 other (the default), 1 an issue in the app."
    ) { (text: String) throws(CLIError) -> Int in
        guard let reason = Int(text), reason == 0 || reason == 1 else {
            throw .usage("invalid --reason '\(text)': use 0 (other) or 1 (an issue in the app).")
        }
        return reason
    }

    func change(_ store: LocalAppStore, _ call: VerbCall) async throws -> Transaction? {
        try await store.transactionManager.refund(transactionID: call.arguments[0], reason: reason(call))
    }

    func message(_ latest: Transaction, _ subscription: SubscriptionLifecycle?, _ call: VerbCall) -> String {
        "Refunded transaction \(latest.transactionID) (\(latest.productID)) with reason \(reason(call)): "
            + "revoked at \(latest.revocationDate.map(TransactionOutput.date) ?? "?")."
    }

    func failure(_ error: LocalAppStoreError, id: String) -> String { error.description }

    /// The reason given, else 0 (the parser has read it).
    private func reason(_ call: VerbCall) -> Int { (try? call.value(Self.reason)) ?? 0 }
}
