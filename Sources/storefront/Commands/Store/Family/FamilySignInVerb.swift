import LocalAppStore

/// `storefront store family sign-in ID`: the data directory's app signs in to another account.
struct FamilySignInVerb: Verb {
    let name = "family sign-in"
    let arguments = [Argument("ID")]
    var footnote: String? { FamilyVerb.sharing }
    let abstract = """
        sign this data directory's app in to an account: products, history, entitlements, restore and the \
        storefront show its purchases from now on
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let id = call.arguments[0]
        guard FamilySharing.isValidAccountID(id) else { throw .usage(FamilyError.invalidAccountID(id).description) }
        let fileSystem = try FaultInjection.fileSystem(environment: call.context.environment)
        let (_, dataDirectory, backend) = try await StoreSession.openBackend(
            call.invocation, context: call.context, fileSystem: fileSystem)
        let account: StoreAccount
        do {
            account = try await backend.familySharing.account(id)
        } catch {
            throw .runtime(error.description)
        }
        try SignedInAccount.save(id, dataDirectory: dataDirectory, fileSystem: fileSystem)
        call.write(
            json: FamilyOutput.json(account),
            lines: ["Signed in to \(account.displayName) (\(id)) in \(dataDirectory.path)."])
    }
}
