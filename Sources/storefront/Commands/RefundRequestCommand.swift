import StoreCore

/// `storefront refund-request TRANSACTION_ID`: the app asks for a refund (StoreKit 2's
/// `Transaction.beginRefundRequest`); the Transaction Manager decides.
struct RefundRequestCommand: Command {
    let name = "refund-request"
    let summary = "Ask the store to refund a transaction, as an app's refund sheet does."
    var forms: [UsageForm] { [UsageForm("TRANSACTION_ID", optional: [GlobalOptions.json])] }
    let discussion = """
        The request waits in the local store until the Transaction Manager approves or declines it
        ('storefront store approve-refund ID' / 'decline-refund ID', or t in the storefront); the
        app hears the decision on its event stream (an approved refund also as the revoked
        transaction, with revocationDate and revocationReason). A second request for the same
        transaction fails as duplicateRequest while one is pending or approved. --json prints
        {"status": "success"}.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.count == 1, let id = invocation.arguments.first else {
            throw .usage("refund-request needs exactly one transaction ID (see 'storefront history').")
        }
        let session = try await StoreSession.open(invocation, context: context)
        let status: RefundRequestStatus
        do {
            status = try await session.store.beginRefundRequest(for: id)
        } catch {
            await session.close()
            throw .runtime(error.description)
        }
        await session.close()
        if invocation.global.json {
            context.output.write(JSONText.object([("status", .string(status.rawValue))]).rendered())
        } else {
            context.output.write("Refund requested for transaction \(id); 'storefront store refund-requests' shows it.\n")
        }
    }
}
