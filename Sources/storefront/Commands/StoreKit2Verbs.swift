import Foundation
import LocalAppStore
import StoreCore

/// The verbs of `storefront store` for StoreKit 2's offers and refund requests: signing a
/// promotional offer with the store's subscription key, issuing and listing offer codes, and
/// the Transaction Manager's refund requests (approve, decline).
enum StoreKit2Verbs {
    /// `--count N` of `store issue-codes`.
    static let count = Option<Int>(
        "count", valueName: "N", help: "store issue-codes: how many codes (1 to 100; default 1)."
    ) { (text: String) throws(CLIError) -> Int in
        guard let n = Int(text), (1...100).contains(n) else {
            throw .usage("--count must be 1 to 100 (got '\(text)').")
        }
        return n
    }
    /// `--username NAME` of `store sign-offer` (hashed, as `buy --username`).
    static let username = Option<String>(
        "username", valueName: "NAME", help: "store sign-offer: the purchase's account name (hashed, as buy's).")

    /// The verbs' forms, as the usage line shows them.
    static let forms: [UsageForm] = [
        UsageForm("sign-offer PRODUCT_ID OFFER_ID", optional: [OfferOptions.appAccountToken, username]),
        UsageForm("codes"), UsageForm("issue-codes PRODUCT_ID OFFER_ID", optional: [count]),
        UsageForm("refund-requests"), UsageForm("approve-refund ID", optional: [StoreSubscriptionVerbs.reason]),
        UsageForm("decline-refund ID"),
    ]

    /// The verbs this type handles.
    static let verbs = Set(forms.compactMap(\.verb))

    /// The verbs' lines in `storefront help store`.
    static let discussion = """
        sign-offer PRODUCT_ID OFFER_ID
                           sign a promotional offer with the store's subscription key, as the
                           app's server would (Apple's signature: bundle ID, key ID, product,
                           offer, app account token, nonce, timestamp); prints what 'buy' takes
        codes              every offer code the store issued, redeemed or not
        issue-codes PRODUCT_ID OFFER_ID
                           issue one-time codes (--count N) for a code offer of the catalog
                           (codeOffers); 'storefront redeem CODE' redeems one
        refund-requests    refund requests the app made ('storefront refund-request ID')
        approve-refund ID  approve a refund request: the transaction is revoked (--reason 0|1)
                           and the app hears the decision
        decline-refund ID  decline a refund request: the transaction stands; the app hears it
        """

    static func run(
        _ verb: String, _ rest: [String], invocation: Invocation, context: CommandContext
    ) async throws(CLIError) {
        guard let form = forms.first(where: { $0.verb == verb }), form.argumentCount == rest.count else {
            let synopsis = forms.first { $0.verb == verb }?.synopsis ?? verb
            throw .usage("usage: storefront store \(synopsis) (got \(StoreCommand.count(rest.count, "argument"))).")
        }
        let (_, _, backend) = try StoreSession.openBackend(invocation, context: context)
        let json = invocation.global.json
        do {
            switch verb {
            case "sign-offer":
                let offer = try backend.signPromotionalOffer(
                    productID: rest[0], offerID: rest[1],
                    appAccountToken: try invocation.value(OfferOptions.appAccountToken),
                    applicationUsername: try invocation.value(username).map(ApplicationUsername.hash))
                context.output.write(
                    describe(offer, productID: rest[0], keyFile: try backend.subscriptionKeyURL().path, json: json))
            case "codes":
                let codes = try await backend.offerCodes()
                context.output.write(
                    describe(
                        codes, json: json, empty: "No offer codes yet; 'storefront store issue-codes' issues some.\n"))
            case "issue-codes":
                let codes = try await backend.issueOfferCodes(
                    productID: rest[0], offerID: rest[1], count: try invocation.value(count) ?? 1)
                context.output.write(describe(codes, json: json, empty: ""))
            case "refund-requests":
                let requests = try await backend.refundRequests()
                context.output.write(describe(requests, json: json))
            default:
                let request =
                    verb == "approve-refund"
                    ? try await backend.approveRefundRequest(
                        rest[0], reason: try invocation.value(StoreSubscriptionVerbs.reason) ?? 0)
                    : try await backend.declineRefundRequest(rest[0])
                context.output.write(
                    json
                        ? Self.json(request).rendered()
                        : "\(request.status == .approved ? "Approved" : "Declined") refund request \(request.id) for transaction \(request.transactionID) (\(request.productID)).\n"
                )
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw .runtime("\(error)")
        }
    }

    static func describe(_ offer: PromotionalOffer, productID: String, keyFile: String, json: Bool) -> String {
        let signature = offer.signature.base64EncodedString()
        let nonce = offer.nonce.uuidString.lowercased()
        if json {
            return JSONText.object([
                ("productID", .string(productID)), ("offerID", .string(offer.offerID)), ("keyID", .string(offer.keyID)),
                ("nonce", .string(nonce)), ("timestamp", .number(String(offer.timestamp))),
                ("signature", .string(signature)),
                ("keyFile", .string(keyFile)),
            ]).rendered()
        }
        return """
            key ID     \(offer.keyID)
            nonce      \(nonce)
            timestamp  \(offer.timestamp)
            signature  \(signature)
            key file   \(keyFile)
            storefront buy \(productID) --offer \(offer.offerID) --key-id \(offer.keyID) --nonce \(nonce) --timestamp \(offer.timestamp) --signature \(signature)

            """
    }

    static func describe(_ codes: [OfferCode], json: Bool, empty: String) -> String {
        if json {
            return JSONText.array(
                codes.map { code in
                    .object([
                        ("code", .string(code.code)), ("productID", .string(code.productID)),
                        ("offerID", .string(code.offerID)),
                        ("issuedAt", .string(code.issuedAt.formatted(.iso8601))),
                        ("redeemedAt", code.redeemedAt.map { .string($0.formatted(.iso8601)) } ?? .null),
                        ("transactionID", code.transactionID.map(JSONText.string) ?? .null),
                    ])
                }
            ).rendered()
        }
        guard !codes.isEmpty else { return empty }
        let rows = codes.map { code in
            [code.code, code.productID, code.offerID, code.transactionID.map { "redeemed (\($0))" } ?? "open"]
        }
        let table = TextTable(
            columns: [.init(header: "CODE"), .init(header: "PRODUCT"), .init(header: "OFFER"), .init(header: "STATE")],
            rows: rows)
        return table.render().joined(separator: "\n") + "\n"
    }

    static func json(_ request: RefundRequest) -> JSONText {
        .object([
            ("id", .string(request.id)), ("transactionID", .string(request.transactionID)),
            ("productID", .string(request.productID)), ("status", .string(request.status.rawValue)),
            ("requestedAt", .string(request.requestedAt.formatted(.iso8601))),
            ("decidedAt", request.decidedAt.map { .string($0.formatted(.iso8601)) } ?? .null),
        ])
    }

    static func describe(_ requests: [RefundRequest], json: Bool) -> String {
        if json { return JSONText.array(requests.map(Self.json)).rendered() }
        guard !requests.isEmpty else { return "No refund requests.\n" }
        let table = TextTable(
            columns: [
                .init(header: "REQUEST"), .init(header: "TRANSACTION"), .init(header: "PRODUCT"),
                .init(header: "STATUS"),
            ],
            rows: requests.map { [$0.id, $0.transactionID, $0.productID, $0.status.rawValue] })
        return table.render().joined(separator: "\n") + "\n"
    }
}
