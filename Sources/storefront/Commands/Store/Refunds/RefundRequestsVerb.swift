/// `storefront store refund-requests`: the refund requests the app made, and their status.
struct RefundRequestsVerb: Verb {
    let name = "refund-requests"
    let abstract = "refund requests the app made ('storefront refund-request ID')"

    func run(_ call: VerbCall) async throws(CLIError) {
        call.write(RefundRequestList(requests: try await call.store { try await $0.refundRequests.all() }))
    }
}
