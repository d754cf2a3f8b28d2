import LocalAppStore

/// `storefront store approve-refund ID [--reason 0|1]` and `decline-refund ID`: the
/// Transaction Manager's decision on a refund request, which the app then hears.
struct RefundDecisionVerb: Verb {
    let name: String
    let abstract: String
    var options: [any CommandOption] = []
    /// The store's call for the decision.
    let decide: @Sendable (LocalAppStore, String, VerbCall) async throws -> RefundRequest
    let arguments = [Argument("ID")]

    static let approve = RefundDecisionVerb(
        name: "approve-refund",
        abstract: "approve a refund request: the transaction is revoked (--reason 0|1) and the app hears the decision",
        options: [RefundVerb.reason]
    ) { try await $0.refundRequests.approve($1, reason: $2.value(RefundVerb.reason) ?? 0) }
    static let decline = RefundDecisionVerb(
        name: "decline-refund", abstract: "decline a refund request: the transaction stands; the app hears it"
    ) { store, id, _ in try await store.refundRequests.decline(id) }

    func run(_ call: VerbCall) async throws(CLIError) {
        let request = try await call.store { try await decide($0, call.arguments[0], call) }
        let decided = request.status == .approved ? "Approved" : "Declined"
        call.write(
            json: RefundRequestList.json(request),
            lines: [
                "\(decided) refund request \(request.id) for transaction \(request.transactionID) (\(request.productID))."
            ])
    }
}
