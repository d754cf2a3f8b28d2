/// `storefront store codes`: every offer code the store issued, redeemed or not.
struct CodesVerb: Verb {
    let name = "codes"
    let abstract = "every offer code the store issued, redeemed or not"

    func run(_ call: VerbCall) async throws(CLIError) {
        let codes = try await call.store { try await $0.offers.codes() }
        call.write(
            OfferCodeList(codes: codes, empty: "No offer codes yet; 'storefront store issue-codes' issues some."))
    }
}
