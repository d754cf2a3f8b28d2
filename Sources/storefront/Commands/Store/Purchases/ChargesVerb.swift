/// `storefront store charges`: every charge the store made to the account.
struct ChargesVerb: Verb {
    let name = "charges"
    let abstract = "every charge the store made to the account"

    func run(_ call: VerbCall) async throws(CLIError) {
        call.write(TransactionList(charges: try await call.store { try await $0.transactionManager.charges() }))
    }
}
