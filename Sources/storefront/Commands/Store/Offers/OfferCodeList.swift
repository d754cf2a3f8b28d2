import LocalAppStore

/// Offer codes as `store codes` and `store issue-codes` print them: a table, or a JSON array of
/// objects with code, productID, offerID, issuedAt, redeemedAt and transactionID (the last two
/// null until the code is redeemed).
struct OfferCodeList: VerbOutput {
    let codes: [OfferCode]
    /// The line for no codes; none when empty.
    var empty = ""

    var json: JSONText {
        .array(
            codes.map { code in
                .object([
                    ("code", .string(code.code)), ("productID", .string(code.productID)),
                    ("offerID", .string(code.offerID)),
                    ("issuedAt", .string(code.issuedAt.formatted(.iso8601))),
                    ("redeemedAt", code.redeemedAt.map { .string($0.formatted(.iso8601)) } ?? .null),
                    ("transactionID", code.transactionID.map(JSONText.string) ?? .null),
                ])
            })
    }

    var lines: [String] {
        guard !codes.isEmpty else { return empty.isEmpty ? [] : [empty] }
        let rows = codes.map { code in
            [code.code, code.productID, code.offerID, code.transactionID.map { "redeemed (\($0))" } ?? "open"]
        }
        return TextTable(
            columns: [.init(header: "CODE"), .init(header: "PRODUCT"), .init(header: "OFFER"), .init(header: "STATE")],
            rows: rows
        ).render()
    }
}
