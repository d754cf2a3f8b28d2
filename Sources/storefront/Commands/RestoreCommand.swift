import StoreCore

/// `storefront restore`: StoreKit 1's restore, the account's non-consumables and
/// auto-renewable subscriptions.
struct RestoreCommand: Command {
    let name = "restore"
    let summary = "Restore purchases: non-consumables and auto-renewable subscriptions (StoreKit 1)."
    var forms: [UsageForm] { [UsageForm(optional: [Self.username, GlobalOptions.json])] }
    let discussion = """
        Asks the local App Store for what StoreKit 1's restoreCompletedTransactions brings back:
        the account's non-consumables and auto-renewable subscriptions, never consumables or
        non-renewing subscriptions ('storefront sync' restores those too). Each restored
        transaction is verified and recorded, and restored products with hosted content are
        downloaded, with progress. --username restores only what that account name bought.
        --json prints an object with 'restored', an array of transactions.
        """

    /// `--username NAME`.
    static let username = Option<String>(
        "username", valueName: "NAME", help: "Restore only purchases made with this account name.")

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("restore takes no arguments.") }
        let username = try invocation.value(Self.username).map(ApplicationUsername.hash)
        let session = try await StoreSession.open(invocation, context: context)
        let restored: [Transaction]
        do {
            restored = try await session.store.restoreTransactions(applicationUsername: username)
        } catch {
            await session.close()
            throw .runtime("restore failed: \(error.description)")
        }
        if invocation.global.json {
            context.output.write(
                JSONText.object([("restored", .array(restored.map { TransactionOutput.json($0) }))]).rendered())
        } else if restored.isEmpty {
            context.output.write("Nothing to restore.\n")
        } else {
            let lines = TransactionOutput.table(restored.map { ($0, TransactionOutput.state(of: $0)) })
            context.output.write(
                (["Restored \(restored.count) purchase\(restored.count == 1 ? "" : "s"):"] + lines).joined(
                    separator: "\n") + "\n")
        }
        // Restored products with hosted content download now, with progress.
        await DownloadsFollower.followRestore(
            restored, session: session, context: context, json: invocation.global.json)
        await session.close()
    }
}
