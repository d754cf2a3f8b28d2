import LocalAppStore
import StoreCore
import StorefrontUI

/// `storefront store …`: the local App Store's transaction manager and settings.
struct StoreCommand: Command {
    let name = "store"
    let summary = "The local App Store's transaction manager and settings."
    var forms: [UsageForm] {
        ["pending", "approve ID", "decline ID", "resolve ID", "charges", "settings", "set NAME VALUE"].map {
            UsageForm($0)
        }
            + StoreSubscriptionVerbs.forms + [UsageForm(StoreConsumptionVerb.usage)] + StoreKit2Verbs.forms
            + StoreNotificationVerbs.forms
    }
    var discussion: String {
        """
        pending            purchases waiting for Ask to Buy approval or to be resolved
        approve ID         approve an Ask to Buy purchase (the account is charged)
        decline ID         decline an Ask to Buy purchase (it fails as cancelled)
        resolve ID         resolve an interrupted purchase (it completes)
        charges            every charge the store made to the account
        settings           every setting with its value and what it does
        set NAME VALUE     change a setting (SETTINGS below), e.g. 'set latency 0',
                           'set ask-to-buy on', 'set time-rate every-2-seconds'

        """ + StoreSubscriptionVerbs.discussion + "\n" + StoreConsumptionVerb.discussion + "\n"
            + StoreKit2Verbs.discussion
            + "\n" + StoreNotificationVerbs.discussion + "\n\n" + Self.settingsHelp + """


                Everything persists in the data directory. Every other storefront process uses a change
                from its next store operation; a storefront open in another terminal shows approvals,
                declines, refunds and renewals made here within about 2 seconds, and its Store Settings
                window (o) shows the settings as they are when it opens.
                """
    }

    /// `1 argument`, `2 arguments`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The SETTINGS section of `storefront help store`, made from the local store's registry.
    static var settingsHelp: String {
        let registry = LocalStoreSettings.registry
        let defaults = Dictionary(uniqueKeysWithValues: LocalStoreSettings().entries.map { ($0.name, $0.value) })
        let lines = HelpText.twoColumns(
            registry.map { ("\($0.name) \($0.synopsis)", "\($0.help); default \(defaults[$0.name] ?? "-")") })
        let errors =
            "ERROR is one of " + SimulatedError.all.map(\.rawValue).joined(separator: ", ")
            + "; on and off may also be written true and false, yes and no, 1 and 0."
        let notes = TextLayout.wrap(errors, width: HelpText.width - 2).map { "  " + $0 }
        return
            (["SETTINGS ('store set NAME VALUE'; a new store starts from the catalog's settings block):"] + lines
            + notes)
            .joined(separator: "\n")
    }

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard let verb = invocation.arguments.first else {
            throw .usage("store needs a subcommand; see 'storefront help store'.")
        }
        let rest = Array(invocation.arguments.dropFirst())
        try checkOptions(invocation, verb: verb)
        if StoreSubscriptionVerbs.verbs.contains(verb) {
            try await StoreSubscriptionVerbs.run(verb, rest, invocation: invocation, context: context)
            return
        }
        if StoreKit2Verbs.verbs.contains(verb) {
            return try await StoreKit2Verbs.run(verb, rest, invocation: invocation, context: context)
        }
        if verb == StoreConsumptionVerb.verb {
            return try await StoreConsumptionVerb.run(rest, invocation: invocation, context: context)
        }
        if StoreNotificationVerbs.verbs.contains(verb) {
            return try await StoreNotificationVerbs.run(verb, rest, invocation: invocation, context: context)
        }
        guard let form = forms.first(where: { $0.verb == verb }) else {
            throw .usage("unknown store subcommand '\(verb)'; see 'storefront help store'.")
        }
        guard form.argumentCount == rest.count else {
            throw .usage("usage: storefront store \(form.synopsis) (got \(Self.count(rest.count, "argument"))).")
        }
        if verb == "set" {
            // The registry's parser decides before anything is opened: a bad name or value is a
            // usage error (exit 2), like every other bad command line.
            var scratch = LocalStoreSettings()
            do { try scratch.set(name: rest[0], value: rest[1]) } catch { throw .usage(error.description) }
        }
        let (_, _, backend) = try StoreSession.openBackend(invocation, context: context)
        let json = invocation.global.json
        do {
            switch (verb, rest.count) {
            case ("pending", 0):
                let pending = try await backend.pending()
                if json {
                    context.output.write(
                        JSONText.array(
                            pending.map { p in
                                TransactionOutput.json(p.transaction, state: "pending-\(p.reason.rawValue)")
                            }
                        ).rendered())
                } else if pending.isEmpty {
                    context.output.write("Nothing is pending.\n")
                } else {
                    let lines = TransactionOutput.table(pending.map { ($0.transaction, $0.reason.rawValue) })
                    context.output.write(lines.joined(separator: "\n") + "\n")
                }
            case ("approve", 1), ("decline", 1), ("resolve", 1):
                let id = rest[0]
                let t: Transaction =
                    switch verb {
                    case "approve": try await backend.approve(transactionID: id)
                    case "decline": try await backend.decline(transactionID: id)
                    default: try await backend.resolve(transactionID: id)
                    }
                if json {
                    context.output.write(TransactionOutput.json(t).rendered())
                } else {
                    let done = verb == "decline" ? "Declined" : verb == "approve" ? "Approved" : "Resolved"
                    context.output.write(
                        "\(done) transaction \(t.transactionID) (\(t.productID)): now \(t.state.rawValue).\n")
                }
            case ("charges", 0):
                let charges = try await backend.charges()
                if json {
                    context.output.write(JSONText.array(charges.map { TransactionOutput.json($0) }).rendered())
                } else if charges.isEmpty {
                    context.output.write("No charges.\n")
                } else {
                    let lines = TransactionOutput.table(charges.map { ($0, TransactionOutput.state(of: $0)) })
                    context.output.write(lines.joined(separator: "\n") + "\n")
                }
            case ("settings", 0):
                let settings = try await backend.settings()
                if json {
                    context.output.write(JSONText.object(settings.map { ($0.name, .string($0.shownValue)) }).rendered())
                } else {
                    let lines = TextTable(
                        columns: [.init(header: "SETTING"), .init(header: "VALUE"), .init(header: "MEANING")],
                        rows: settings.map { [$0.name, $0.shownValue, $0.description] }
                    ).render()
                    context.output.write(lines.joined(separator: "\n") + "\n")
                }
            case ("set", 2):
                try await backend.set(name: rest[0], value: rest[1])
                if json {
                    context.output.write(
                        JSONText.object([("name", .string(rest[0])), ("value", .string(rest[1]))]).rendered())
                } else {
                    context.output.write("\(rest[0]) = \(rest[1])\n")
                }
            default:
                throw CLIError.usage(
                    "unknown or incomplete store subcommand '\(([verb] + rest).joined(separator: " "))'; see 'storefront help store'."
                )
            }
        } catch {
            throw CLIError(error)
        }
    }
}
