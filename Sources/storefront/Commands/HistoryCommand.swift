import LocalAppStore
import StoreCore

/// `storefront history`: what the app has recorded, balances, and what still waits.
struct HistoryCommand: Command {
    let name = "history"
    let summary = "Show delivered purchases, consumable balances and pending purchases."
    var forms: [UsageForm] { [UsageForm(optional: [GlobalOptions.json])] }
    let discussion = """
        Lists every transaction the app recorded (oldest first), purchases still waiting for
        approval or resolution, and consumable balances; each monthly payment of a 12-month
        commitment says where it stands ("payment 3 of 12, commitment ends 2027-12-07").
        --json prints an object with 'transactions' (each with transactionID,
        originalTransactionID, productID, productType, quantity, purchaseDate and state —
        refunded, pending or the transaction's own — and where they apply expiresDate,
        revocationDate, offerType, price, billingPlanType, commitmentInfo…), 'balances'
        (consumable product ID to count), 'pending' (the transactions still waiting), and
        'unverifiedOrders': purchases the store reported but verification could not complete
        (each a transaction with lastFailure and attempts); they stay unfinished and are retried
        at every start until verified.
        """

    /// A transaction's JSON with its Apple-style order ID (purchases only; restores are no orders).
    static func withOrderID(_ json: JSONText, _ t: Transaction) -> JSONText {
        guard case .object(let members) = json, t.state == .purchased,
            let order = OrderID.make(transactionID: t.transactionID)
        else { return json }
        return .object(members + [("orderID", .string(order))])
    }

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("history takes no arguments.") }
        let session = try await StoreSession.open(invocation, context: context, readsOnly: true)
        let lost = await LedgerCheck.reconcile(session)
        // The table decodes only what it prints of each transaction; --json prints everything.
        let json = invocation.global.json
        let delivered: [Transaction]
        let summaries: [TransactionSummary]
        let balances: [String: Int]
        let pending: [Transaction]
        let unverified: [UnverifiedOrder]
        do {
            delivered = json ? try await session.store.history() : []
            summaries = json ? [] : try await session.store.historySummaries()
            balances = try await session.store.balances()
            pending = try await session.backend.transactionManager.pending().map(\.transaction)
            unverified = try await session.store.unverifiedOrders()
        } catch {
            await session.close()
            throw .runtime("cannot read the purchase history: \(error)")
        }
        await session.close()
        if json {
            let rows = delivered.map { ($0, TransactionOutput.state(of: $0)) } + pending.map { ($0, "pending") }
            context.output.write(
                JSONText.object([
                    (
                        "transactions",
                        .array(rows.map { Self.withOrderID(TransactionOutput.json($0.0, state: $0.1), $0.0) })
                    ),
                    (
                        "balances",
                        .object(balances.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) })
                    ),
                    ("pending", .array(pending.map { TransactionOutput.json($0) })),
                    (
                        "unverifiedOrders",
                        .array(
                            unverified.map { order in
                                guard
                                    case .object(let members) = TransactionOutput.json(
                                        order.transaction, state: "unverified")
                                else { return .null }
                                return .object(
                                    members + [
                                        ("lastFailure", .string(order.lastFailure)),
                                        ("attempts", .number(String(order.attempts))),
                                    ])
                            })
                    ),
                ]).rendered())
            if let lost { throw .runtime(lost) }
            return
        }
        // Written as it is laid out, as bytes, in pieces of about 64 KiB (each ends a line).
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        func endLine() {
            buffer.append(0x0A)
            if buffer.count >= 1 << 16 {
                context.output.write(String(decoding: buffer, as: UTF8.self))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        func emit(_ line: String) {
            buffer.append(contentsOf: line.utf8)
            endLine()
        }
        func line(_ bytes: UnsafeRawBufferPointer) {
            buffer.append(contentsOf: bytes)
            endLine()
        }
        let pendingSummaries = pending.map(TransactionSummary.init)
        if summaries.isEmpty && pending.isEmpty {
            emit("No purchases yet.")
        } else if !HistoryTable.write(summaries, pending: pendingSummaries, line: line) {
            let rows =
                summaries.map { ($0, TransactionOutput.state(of: $0)) } + pendingSummaries.map { ($0, "pending") }
            TransactionOutput.table(rows, bytes: line)
        }
        var orders = true
        for t in summaries where t.state == .purchased {
            guard let order = OrderID.make(transactionID: t.transactionID) else { continue }
            if orders {
                emit("")
                emit("Order IDs (Look Up Order ID):")
                orders = false
            }
            // "  \(t.transactionID)  \(order)"
            buffer.append(0x20)
            buffer.append(0x20)
            buffer.append(contentsOf: t.transactionID.utf8)
            buffer.append(0x20)
            buffer.append(0x20)
            buffer.append(contentsOf: order.utf8)
            endLine()
        }
        if !unverified.isEmpty {
            emit("")
            emit("Unverified orders (kept, unfinished, retried at every start until verified):")
            for order in unverified {
                emit(
                    "  \(order.transaction.transactionID)  \(order.transaction.productID)  \(order.attempts) attempt(s), last: \(order.lastFailure)"
                )
            }
        }
        if !balances.isEmpty {
            emit("")
            emit("Balances:")
            for (product, count) in balances.sorted(by: { $0.key < $1.key }) { emit("  \(product): \(count)") }
        }
        if !buffer.isEmpty { context.output.write(String(decoding: buffer, as: UTF8.self)) }
        if let lost { throw .runtime(lost) }
    }
}
