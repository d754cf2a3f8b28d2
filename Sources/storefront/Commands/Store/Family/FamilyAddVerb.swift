import Catalog
import LocalAppStore

/// `storefront store family add ID [--name NAME] [--country CODE]`: an account joins the family.
struct FamilyAddVerb: Verb {
    let name = "family add"
    let arguments = [Argument("ID")]
    let options: [any CommandOption] = [Self.displayName, Self.country]
    var footnote: String? { FamilyVerb.sharing }
    let abstract = """
        add an account to the family (made with the signed-in account as organizer if there is none); it gets \
        the family's shared purchases, and shares its own
        """

    /// `--name NAME`.
    static let displayName = Option<String>(
        "name", valueName: "NAME", help: "store family add: the account's name (default: its ID).")
    /// `--country CODE`.
    static let country = Option<String>(
        "country", valueName: "CODE",
        help: "store family add: the account's storefront, ISO 3166 alpha-3 (default: the catalog's).")

    func run(_ call: VerbCall) async throws(CLIError) {
        let id = call.arguments[0]
        guard FamilySharing.isValidAccountID(id) else { throw .usage(FamilyError.invalidAccountID(id).description) }
        let country = try call.value(Self.country)
        if let country, Storefront.named(country) == nil {
            throw .usage(
                "invalid --country '\(country)': expected an ISO 3166 alpha-3 storefront code such as USA, JPN or DEU.")
        }
        let account = StoreAccount(id: id, displayName: try call.value(Self.displayName) ?? id, storefront: country)
        let family = try await call.store { try await $0.familySharing.add(account) }
        call.write(
            json: FamilyOutput.json(family: family, accounts: family.everyone, signedIn: ""),
            lines: ["\(account.displayName) (\(id)) joined the family of \(family.organizer.displayName)."])
    }
}
