/// One verb of a command that has verbs (`storefront store renew ID`), declared once, as
/// swift-argument-parser declares a subcommand: its name, arguments, options, abstract and
/// discussion. The parser picks it by name, checks its arguments and options and runs it;
/// the command's usage line, its help and the verb's own help are made from the declaration.
///
/// A new verb is one small file (a type conforming to `Verb`) and one line in its command's
/// `verbs`.
protocol Verb: Sendable {
    /// The words that name it after the command, e.g. `renew` or `notifications resend`; empty
    /// for the command's default verb, which runs when no verb is given (`storefront receipt [FILE]`).
    var name: String { get }
    /// Its positional arguments, in order.
    var arguments: [Argument] { get }
    /// Options it needs, shown bare in its usage (`--root CERT`).
    var requiredOptions: [any CommandOption] { get }
    /// Options it may take, shown in brackets (`[--reason 0|1]`).
    var options: [any CommandOption] { get }
    /// What it does, in a phrase or two: its entry in the command's help and the start of its own.
    var abstract: String { get }
    /// What only its own help adds (`storefront store set --help` lists the settings); may be empty.
    var discussion: String { get }
    /// A paragraph about several verbs of one kind, shown once after the last of them in the
    /// command's help and in each one's own help; `nil` for none.
    var footnote: String? { get }

    /// Runs the verb; the parser has checked its arguments and options.
    /// - Throws: `CLIError.usage` for what only running can find wrong with the command line
    ///   (exit 2), `.runtime` for failures (exit 1).
    func run(_ call: VerbCall) async throws(CLIError)
}

extension Verb {
    var arguments: [Argument] { [] }
    var requiredOptions: [any CommandOption] { [] }
    var options: [any CommandOption] { [] }
    var discussion: String { "" }
    var footnote: String? { nil }

    /// The words of its name.
    var words: [String] { name.split(separator: " ").map(String.init) }

    /// Its name and arguments, e.g. `billing-issue ID on|off`.
    var signature: String { ([name] + arguments.map(\.synopsis)).filter { !$0.isEmpty }.joined(separator: " ") }

    /// The way to call it, as its command's usage line shows it.
    var form: UsageForm { UsageForm(signature, required: requiredOptions, optional: options) }

    /// Whether it takes `option`.
    func takes(_ option: any CommandOption) -> Bool {
        (requiredOptions + options).contains { $0.name == option.name }
    }
}
