import StoreCore

/// `storefront storefront`: StoreKit 2's `Storefront.current`, as the engine hears it.
struct StorefrontCommand: Command {
    let name = "storefront"
    let summary = "Show the account's storefront (StoreKit 2's Storefront.current)."
    var forms: [UsageForm] { [UsageForm(optional: [GlobalOptions.json])] }
    let discussion = """
        Prints the storefront the engine reports for the account: its ISO 3166 alpha-3 country
        code, Apple's storefront ID, its name, currency and locale (--storefront chooses it for
        one command; the storefront's Storefront & Language window (s) changes it, and the app
        hears the change on the engine's storefront updates). --json prints an object with
        countryCode, id, name, currencyCode and locale.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("storefront takes no arguments.") }
        let session = try await StoreSession.open(invocation, context: context)
        let storefront = await session.store.storefront()
        await session.close()
        guard let storefront else { throw .runtime("the store does not say which storefront the account uses.") }
        if invocation.global.json {
            context.output.write(
                JSONText.object([
                    ("countryCode", .string(storefront.countryCode)), ("id", .string(storefront.id)),
                    ("name", .string(storefront.name)), ("currencyCode", .string(storefront.currencyCode)),
                    ("locale", .string(storefront.locale)),
                ]).rendered())
        } else {
            context.output.write(
                "\(storefront.countryCode) (\(storefront.name)): storefront ID \(storefront.id), \(storefront.currencyCode), \(storefront.locale)\n"
            )
        }
    }
}
