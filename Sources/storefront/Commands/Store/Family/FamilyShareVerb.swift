import LocalAppStore

/// `storefront store family share PRODUCT on|off`: the signed-in account shares one of its
/// products with the family, or stops.
struct FamilyShareVerb: Verb {
    let name = "family share"
    let arguments = [Argument("PRODUCT"), Argument("on|off", parse: BillingIssueVerb.onOff)]
    var footnote: String? { FamilyVerb.sharing }
    let abstract = """
        share a product the signed-in account bought with the family ('on', the default), or stop ('off': the \
        members' transactions are revoked, REVOKE)
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let (productID, on) = (call.arguments[0], try BillingIssueVerb.onOff(call.arguments[1]))
        try await call.store { try await $0.familySharing.setSharing(productID: productID, on: on) }
        call.write(
            json: .object([("productID", .string(productID)), ("shared", .bool(on))]),
            lines: ["\(productID) is \(on ? "shared with" : "no longer shared with") the family."])
    }
}
