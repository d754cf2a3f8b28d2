/// `storefront store issue-codes PRODUCT_ID OFFER_ID [--count N]`: one-time codes for a code
/// offer of the catalog.
struct IssueCodesVerb: Verb {
    let name = "issue-codes"
    let arguments = [Argument("PRODUCT_ID"), Argument("OFFER_ID")]
    var options: [any CommandOption] { [Self.count] }
    let abstract = """
        issue one-time codes (--count N) for a code offer of the catalog (codeOffers; OFFER_ID is its \
        offerID, else its internalID or referenceName); 'storefront redeem CODE' redeems one
        """

    /// `--count N`.
    static let count = Option<Int>(
        "count", valueName: "N", help: "store issue-codes: how many codes (1 to 100; default 1)."
    ) { (text: String) throws(CLIError) -> Int in
        guard let n = Int(text), (1...100).contains(n) else {
            throw .usage("--count must be 1 to 100 (got '\(text)').")
        }
        return n
    }

    func run(_ call: VerbCall) async throws(CLIError) {
        let count = try call.value(Self.count) ?? 1
        let codes = try await call.store {
            try await $0.offers.issueCodes(productID: call.arguments[0], offerID: call.arguments[1], count: count)
        }
        call.write(OfferCodeList(codes: codes))
    }
}
