import LocalAppStore
import StoreCore

/// `storefront history`: what the app has recorded, balances, and what still waits.
struct HistoryCommand: Command {
    let name = "history"
    let summary = "Show delivered purchases, consumable balances and pending purchases."
    var forms: [UsageForm] { [UsageForm(optional: [GlobalOptions.json])] }
    let discussion = """
        Lists every transaction the app recorded (oldest first), purchases still waiting for
        approval or resolution, and consumable balances. --json prints an object with
        'transactions' (each with transactionID, originalTransactionID, productID, productType,
        quantity, purchaseDate and state — refunded, pending or the transaction's own — and
        where they apply expiresDate, revocationDate, offerType, price…), 'balances'
        (consumable product ID to count), 'pending' (the transactions still waiting), and
        'unverifiedOrders': purchases the store reported but verification could not complete
        (each a transaction with lastFailure and attempts); they stay unfinished and are retried
        at every start until verified.
        """

    /// A transaction's JSON with its Apple-style order ID (purchases only; restores are no orders).
    static func withOrderID(_ json: JSONText, _ t: Transaction) -> JSONText {
        guard case .object(let members) = json, t.state == .purchased,
              let order = LocalAppStore.orderID(forTransactionID: t.transactionID) else { return json }
        return .object(members + [("orderID", .string(order))])
    }

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("history takes no arguments.") }
        let session = try await StoreSession.open(invocation, context: context)
        let lost = await LedgerCheck.reconcile(session)
        let delivered: [Transaction]
        let balances: [String: Int]
        let pending: [Transaction]
        let unverified: [UnverifiedOrder]
        do {
            delivered = try await session.store.history()
            balances = try await session.store.balances()
            pending = try await session.backend.pending().map(\.transaction)
            unverified = try await session.store.unverifiedOrders()
        } catch {
            await session.close()
            throw .runtime("cannot read the purchase history: \(error)")
        }
        await session.close()
        let rows = delivered.map { ($0, $0.revocationDate == nil ? $0.state.rawValue : "refunded") }
            + pending.map { ($0, "pending") }
        if invocation.global.json {
            context.output.write(JSONText.object([
                ("transactions", .array(rows.map { Self.withOrderID(TransactionOutput.json($0.0, state: $0.1), $0.0) })),
                ("balances", .object(balances.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) })),
                ("pending", .array(pending.map { TransactionOutput.json($0) })),
                ("unverifiedOrders", .array(unverified.map { order in
                    guard case .object(let members) = TransactionOutput.json(order.transaction, state: "unverified") else { return .null }
                    return .object(members + [("lastFailure", .string(order.lastFailure)), ("attempts", .number(String(order.attempts)))])
                })),
            ]).rendered())
            if let lost { throw .runtime(lost) }
            return
        }
        var lines = rows.isEmpty ? ["No purchases yet."] : TransactionOutput.table(rows)
        let orders = delivered.filter { $0.state == .purchased }.compactMap { t in
            LocalAppStore.orderID(forTransactionID: t.transactionID).map { "  \(t.transactionID)  \($0)" }
        }
        if !orders.isEmpty { lines += ["", "Order IDs (Look Up Order ID):"] + orders }
        if !unverified.isEmpty {
            lines += ["", "Unverified orders (kept, unfinished, retried at every start until verified):"]
                + unverified.map { "  \($0.transaction.transactionID)  \($0.transaction.productID)  \($0.attempts) attempt(s), last: \($0.lastFailure)" }
        }
        if !balances.isEmpty {
            lines += ["", "Balances:"] + balances.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
        }
        context.output.write(lines.joined(separator: "\n") + "\n")
        if let lost { throw .runtime(lost) }
    }
}
