/// `storefront store pending`: the purchases that wait for Ask to Buy or to be resolved.
struct PendingVerb: Verb {
    let name = "pending"
    let abstract = "purchases waiting for Ask to Buy approval or to be resolved"

    func run(_ call: VerbCall) async throws(CLIError) {
        call.write(TransactionList(pending: try await call.store { try await $0.transactionManager.pending() }))
    }
}
