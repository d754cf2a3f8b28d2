/// A command made of verbs (`storefront store renew ID`), as a swift-argument-parser command is
/// made of subcommands: the parser picks the verb and checks its arguments and options, the
/// command runs it, and its usage and help are made from the verbs' declarations.
protocol VerbCommand: Command {
    /// Its verbs, in help order. One may have an empty name: it runs when no verb is given.
    var verbs: [any Verb] { get }
}

extension VerbCommand {
    /// No more than the verbs say, unless the command says more.
    var discussion: String { "" }

    /// One form a verb.
    var forms: [UsageForm] { verbs.map(\.form) }

    /// The verb that runs without a verb name, if there is one.
    var defaultVerb: (any Verb)? { verbs.first { $0.name.isEmpty } }

    /// The verb named `name` (empty for the default verb).
    func verb(named name: String?) -> (any Verb)? { verbs.first { $0.name == name } }

    /// Runs the verb the parser picked.
    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        let verb: any Verb
        if let named = self.verb(named: invocation.verb) {
            verb = named
        } else {
            verb = try VerbResolver.resolve([], in: self).0
        }
        try await verb.run(VerbCall(invocation: invocation, context: context))
    }

    /// `store renew`, or `receipt` for the default verb: how messages name a verb.
    func path(of verb: any Verb) -> String { verb.name.isEmpty ? name : "\(name) \(verb.name)" }

    /// `store cancel ID [--undo]`: the verb's form after the command's name.
    func synopsis(of verb: any Verb) -> String {
        [name, verb.form.synopsis].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
