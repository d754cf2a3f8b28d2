import StoreCore

/// `storefront latest PRODUCT_ID`: StoreKit 2's `Transaction.latest(for:)`.
struct LatestCommand: Command {
    let name = "latest"
    let summary = "Show a product's latest transaction (StoreKit 2's Transaction.latest(for:))."
    var forms: [UsageForm] { [UsageForm("PRODUCT_ID", optional: [GlobalOptions.json])] }
    let discussion = """
        Prints the latest transaction the app recorded for the product: the one purchased last,
        refunded, expired or upgraded ones included (its state says which). Exits 1 when the
        account never had the product. --json prints the transaction as 'storefront history
        --json' shows one, or null.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        let productID = try invocation.onlyArgument(
            orUsage: "latest needs exactly one product ID (see 'storefront products').")
        let session = try await StoreSession.open(invocation, context: context)
        let latest: Transaction?
        do {
            latest = try await session.store.latestTransaction(for: productID)
        } catch {
            await session.close()
            throw .runtime("cannot read the purchase history: \(error)")
        }
        await session.close()
        let state = latest.map {
            $0.revocationDate == nil && $0.isUpgraded ? "upgraded" : TransactionOutput.state(of: $0)
        }
        if invocation.global.json {
            context.output.write((latest.map { TransactionOutput.json($0, state: state) } ?? .null).rendered())
        } else if let latest, let state {
            context.output.write(TransactionOutput.table([(latest, state)]).joined(separator: "\n") + "\n")
        }
        if latest == nil { throw .runtime("the account never had \(productID).") }
    }
}
