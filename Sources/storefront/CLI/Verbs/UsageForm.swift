/// One way to call a command, e.g. `refund ID [--reason 0|1]`: its words, then the options it
/// needs and those it may take. A command's usage line, its own options (for the parser) and
/// which verb an option belongs to are all made from its forms.
struct UsageForm: Sendable {
    /// The words before the options, e.g. `refund ID`, `PRODUCT_ID`, `[FILE]`; may be empty.
    let words: String
    /// Options this form needs, shown bare (`--root CERT`).
    let required: [any CommandOption]
    /// Options this form may take, shown in brackets (`[--at DATE]`).
    let optional: [any CommandOption]

    /// Declares a form.
    init(_ words: String = "", required: [any CommandOption] = [], optional: [any CommandOption] = []) {
        self.words = words
        self.required = required
        self.optional = optional
    }

    /// Every option the form names.
    var options: [any CommandOption] { required + optional }

    /// The form as the usage line shows it, e.g. `refund ID [--reason 0|1]`.
    var synopsis: String {
        ([words] + required.map(\.synopsis) + optional.map { "[\($0.synopsis)]" })
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The form's verb: its first word when it is a literal (`refund`), else `nil` (`ID`, `[FILE]`).
    var verb: String? {
        guard let first = words.split(separator: " ").first, first.allSatisfy({ $0.isLowercase || $0 == "-" })
        else { return nil }
        return String(first)
    }

    /// How many arguments follow the verb, e.g. 2 for `set NAME VALUE`.
    var argumentCount: Int { max(0, words.split(separator: " ").count - 1) }
}
