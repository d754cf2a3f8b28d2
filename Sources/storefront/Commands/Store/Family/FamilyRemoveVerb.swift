import LocalAppStore

/// `storefront store family remove ID`: an account leaves the family (or is removed).
struct FamilyRemoveVerb: Verb {
    let name = "family remove"
    let arguments = [Argument("ID")]
    var footnote: String? { FamilyVerb.sharing }
    let abstract = """
        remove an account from the family (a member leaving): every share it gave or got is revoked (REVOKE); \
        removing the organizer ends the family
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let id = call.arguments[0]
        let family = try await call.store { try await $0.familySharing.remove(id) }
        call.write(
            json: FamilyOutput.json(family: family, accounts: family?.everyone ?? [], signedIn: ""),
            lines: [family == nil ? "\(id) left; the family has ended." : "\(id) left the family."])
    }
}
