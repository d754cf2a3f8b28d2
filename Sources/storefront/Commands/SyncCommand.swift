import StoreCore

/// `storefront sync`: StoreKit 2's `AppStore.sync()`, restore and catch up in one call.
struct SyncCommand: Command {
    let name = "sync"
    let summary = "Sync with the store in one call (StoreKit 2's AppStore.sync()): restore and catch up."
    var forms: [UsageForm] { [UsageForm(optional: [GlobalOptions.json])] }
    let discussion = """
        What a "Restore Purchases" button does with StoreKit 2: picks up what other processes
        changed (approvals, refunds, renewals), restores the account's non-consumables and
        subscriptions, non-renewing ones too (each verified and recorded; never consumables;
        'storefront restore' is StoreKit 1's, without non-renewing ones), and reports the
        subscription statuses that changed. Prints the restored transactions and what the
        account is entitled to afterwards. --json prints an object with 'restored' (an array of
        transactions) and 'entitlements' (product IDs).
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("sync takes no arguments.") }
        let session = try await StoreSession.open(invocation, context: context)
        let restored: [Transaction]
        let entitled: [String]
        do {
            restored = try await session.store.sync()
            entitled = try await session.store.currentEntitlements().map(\.productID)
        } catch let error as StoreError {
            await session.close()
            throw .runtime("sync failed: \(error.description)")
        } catch {
            await session.close()
            throw .runtime("sync failed: \(error)")
        }
        if invocation.global.json {
            context.output.write(
                JSONText.object([
                    ("restored", .array(restored.map { TransactionOutput.json($0) })),
                    ("entitlements", .array(entitled.map(JSONText.string))),
                ]).rendered())
        } else {
            var lines = ["Synced: \(restored.count) transaction\(restored.count == 1 ? "" : "s") restored."]
            if !restored.isEmpty {
                lines += TransactionOutput.table(restored.map { ($0, TransactionOutput.state(of: $0)) })
            }
            lines.append(entitled.isEmpty ? "No entitlements." : "Entitled to: " + entitled.joined(separator: ", "))
            context.output.write(lines.joined(separator: "\n") + "\n")
        }
        await DownloadsFollower.followRestore(
            restored, session: session, context: context, json: invocation.global.json)
        await session.close()
    }
}
