/// `storefront transaction verify FILE [--root CERT]`: verifies a StoreKit 2 signed
/// transaction (JWS) and prints its payload.
struct TransactionCommand: VerbCommand {
    let name = "transaction"
    let summary = "Verify a JWS signed transaction and print its payload."
    let verbs: [any Verb] = [TransactionVerifyVerb()]
}
