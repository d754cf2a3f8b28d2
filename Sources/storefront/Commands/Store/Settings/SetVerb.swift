import LocalAppStore
import StoreCore
import StorefrontUI

/// `storefront store set NAME VALUE`: changes one setting of the local store, read by the
/// settings' registry.
struct SetVerb: Verb {
    let name = "set"
    let arguments = [Argument("NAME"), Argument("VALUE")]
    let abstract = """
        change a setting (SETTINGS below), e.g. 'set latency 0',
        'set ask-to-buy on', 'set time-rate every-2-seconds'
        """
    var discussion: String { Self.settings }

    func run(_ call: VerbCall) async throws(CLIError) {
        let (name, value) = (call.arguments[0], call.arguments[1])
        // The registry's parser decides before anything is opened: a bad name or value is a
        // usage error (exit 2), like every other bad command line.
        var scratch = LocalStoreSettings()
        do { try scratch.set(name: name, value: value) } catch { throw .usage(error.description) }
        try await call.store { try await $0.settings.set(name: name, value: value) }
        call.write(json: .object([("name", .string(name)), ("value", .string(value))]), lines: ["\(name) = \(value)"])
    }

    /// The SETTINGS section of the store's help and of this verb's, made from the local store's registry.
    static var settings: String {
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
}
