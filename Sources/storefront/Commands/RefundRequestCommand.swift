import LocalAppStore
import StoreCore

/// `storefront refund-request TRANSACTION_ID`: the app asks for a refund (StoreKit 2's
/// `Transaction.beginRefundRequest`); the Transaction Manager decides.
struct RefundRequestCommand: Command {
    let name = "refund-request"
    let summary = "Ask the store to refund a transaction, as an app's refund sheet does."
    var forms: [UsageForm] { [UsageForm("TRANSACTION_ID", optional: [Self.reason, GlobalOptions.json])] }
    /// `--reason REASON`: what the customer picks on the refund sheet (Apple's
    /// `consumptionRequestReason`).
    static let reason = Option<String>(
        "reason", valueName: "REASON",
        help:
            "why the customer asks (\(RefundRequest.reasons.joined(separator: ", ")); default UNSATISFIED_WITH_PURCHASE)."
    ) {
        (text: String) throws(CLIError) -> String in
        guard let reason = RefundRequest.reasons.first(where: { $0 == text.uppercased() }) else {
            throw .usage("--reason must be one of \(RefundRequest.reasons.joined(separator: ", ")), not \"\(text)\".")
        }
        return reason
    }
    let discussion = """
        The request waits in the local store until the Transaction Manager approves or declines it
        ('storefront store approve-refund ID' / 'decline-refund ID', or t in the storefront); the
        app hears the decision on its event stream (an approved refund also as the revoked
        transaction, with revocationDate and revocationReason). A second request for the same
        transaction fails as duplicateRequest while one is pending or approved. --json prints
        {"status": "success"}. With 'set notification-url', the app's server gets
        CONSUMPTION_REQUEST for a consumable or an auto-renewable subscription (with --reason as
        its consumptionRequestReason), then REFUND or REFUND_DECLINED on the decision.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        let id = try invocation.onlyArgument(
            orUsage: "refund-request needs exactly one transaction ID (see 'storefront history').")
        let reason = try invocation.value(Self.reason)
        let session = try await StoreSession.open(invocation, context: context)
        let status: RefundRequestStatus
        do {
            // The engine's call, or the store's own with the sheet's reason when one is given.
            if let reason {
                status = try await session.backend.refundRequests.begin(
                    transactionID: id, consumptionRequestReason: reason)
            } else {
                status = try await session.store.beginRefundRequest(for: id)
            }
        } catch {
            await session.close()
            throw .runtime(error.description)
        }
        await session.close()
        if invocation.global.json {
            context.output.write(JSONText.object([("status", .string(status.rawValue))]).rendered())
        } else {
            context.output.write(
                "Refund requested for transaction \(id); 'storefront store refund-requests' shows it.\n")
        }
    }
}
