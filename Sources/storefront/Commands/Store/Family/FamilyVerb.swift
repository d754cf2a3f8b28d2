import LocalAppStore

/// `storefront store family`: the accounts of the store, the family and who is signed in.
struct FamilyVerb: Verb {
    let name = "family"
    let abstract = "the accounts, the family (its organizer and up to five members) and the signed-in account"
    var footnote: String? { Self.sharing }

    /// The paragraph every family verb's help ends with.
    static let sharing =
        """
        FAMILY SHARING: a familyShareable non-consumable or auto-renewable subscription one member buys gives \
        each other member a FAMILY_SHARED transaction of its own, delivered when that member's app runs \
        (--account ID, or 'store family sign-in ID'); removing a member, a purchaser turning sharing off and a \
        refund revoke them (REVOKE).
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let (family, accounts, signedIn) = try await call.store { store in
            (
                try await store.familySharing.family(), try await store.familySharing.accounts(),
                store.configuration.account.id
            )
        }
        call.write(
            json: FamilyOutput.json(family: family, accounts: accounts, signedIn: signedIn),
            lines: FamilyOutput.lines(family: family, accounts: accounts, signedIn: signedIn))
    }
}
