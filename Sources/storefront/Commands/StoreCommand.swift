import LocalAppStore
import StoreCore

/// `storefront store …`: the local App Store's transaction manager and settings.
struct StoreCommand: Command {
    let name = "store"
    let summary = "The local App Store's transaction manager and settings."
    let usage = "pending | approve ID | decline ID | resolve ID | charges | settings | set NAME VALUE | "
        + StoreSubscriptionVerbs.usage + " | " + StoreConsumptionVerb.usage
    let discussion = """
        pending            purchases waiting for Ask to Buy approval or to be resolved
        approve ID         approve an Ask to Buy purchase (the account is charged)
        decline ID         decline an Ask to Buy purchase (it fails as cancelled)
        resolve ID         resolve an interrupted purchase (it completes)
        charges            every charge the store made to the account
        settings           every setting with its value
        set NAME VALUE     change a setting, e.g. 'set latency 0', 'set ask-to-buy on',
                           'set fail-purchases on', 'set payments-allowed off',
                           'set time-rate 15' or 'set time-rate every-2-seconds' (Apple's
                           SKTestTimeRate raw value or name), 'set billing-retry on',
                           'set grace-period on'

        """ + StoreSubscriptionVerbs.discussion + "\n" + StoreConsumptionVerb.discussion + """


        Everything persists in the data directory; a storefront running in another terminal
        sees the change at once.
        """
    let options: [OptionSpec] = [
        OptionSpec(name: "reason", valueName: "0|1", help: "store refund: 0 other (the default), 1 an issue in the app."),
        OptionSpec(name: "undo", valueName: nil, help: "store cancel: turn auto-renew back on."),
    ]

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard let verb = invocation.arguments.first else {
            throw .usage("store needs a subcommand: \(usage).")
        }
        let rest = Array(invocation.arguments.dropFirst())
        try StoreSubscriptionVerbs.checkOptions(invocation.options, verb: verb)
        if StoreSubscriptionVerbs.verbs.contains(verb) {
            try await StoreSubscriptionVerbs.run(verb, rest, invocation: invocation, context: context)
            return
        }
        if verb == StoreConsumptionVerb.verb { return try await StoreConsumptionVerb.run(rest, invocation: invocation, context: context) }
        let (_, _, backend) = try StoreSession.openBackend(invocation, context: context)
        let json = invocation.global.json
        do {
            switch (verb, rest.count) {
            case ("pending", 0):
                let pending = try await backend.pending()
                if json {
                    context.output.write(JSONText.array(pending.map { p in
                        TransactionOutput.json(p.transaction, state: "pending-\(p.reason.rawValue)")
                    }).rendered())
                } else if pending.isEmpty {
                    context.output.write("Nothing is pending.\n")
                } else {
                    let lines = TransactionOutput.table(pending.map { ($0.transaction, $0.reason.rawValue) })
                    context.output.write(lines.joined(separator: "\n") + "\n")
                }
            case ("approve", 1), ("decline", 1), ("resolve", 1):
                let id = rest[0]
                let t: Transaction = switch verb {
                case "approve": try await backend.approve(transactionID: id)
                case "decline": try await backend.decline(transactionID: id)
                default: try await backend.resolve(transactionID: id)
                }
                if json {
                    context.output.write(TransactionOutput.json(t).rendered())
                } else {
                    let done = verb == "decline" ? "Declined" : verb == "approve" ? "Approved" : "Resolved"
                    context.output.write("\(done) transaction \(t.transactionID) (\(t.productID)): now \(t.state.rawValue).\n")
                }
            case ("charges", 0):
                let charges = try await backend.charges()
                if json {
                    context.output.write(JSONText.array(charges.map { TransactionOutput.json($0) }).rendered())
                } else if charges.isEmpty {
                    context.output.write("No charges.\n")
                } else {
                    let lines = TransactionOutput.table(charges.map { ($0, $0.state.rawValue) })
                    context.output.write(lines.joined(separator: "\n") + "\n")
                }
            case ("settings", 0):
                let settings = try await backend.settings()
                if json {
                    context.output.write(JSONText.object(settings.map { ($0.name, .string($0.value)) }).rendered())
                } else {
                    let lines = TextTable(
                        columns: [.init(header: "SETTING"), .init(header: "VALUE"), .init(header: "MEANING")],
                        rows: settings.map { [$0.name, $0.value, $0.description] }
                    ).render()
                    context.output.write(lines.joined(separator: "\n") + "\n")
                }
            case ("set", 2):
                try await backend.set(name: rest[0], value: rest[1])
                if json {
                    context.output.write(JSONText.object([("name", .string(rest[0])), ("value", .string(rest[1]))]).rendered())
                } else {
                    context.output.write("\(rest[0]) = \(rest[1])\n")
                }
            default:
                throw CLIError.usage("unknown or incomplete store subcommand '\(([verb] + rest).joined(separator: " "))'; use \(usage).")
            }
        } catch let error as CLIError {
            throw error
        } catch let error as LocalAppStoreError {
            throw .runtime(error.description)
        } catch {
            throw .runtime("\(error)")
        }
    }
}
