/// `storefront store settings`: every setting of the local store, its value and meaning.
struct SettingsVerb: Verb {
    let name = "settings"
    let abstract = "every setting with its value and what it does"

    func run(_ call: VerbCall) async throws(CLIError) {
        let settings = try await call.store { try await $0.settings.all() }
        let table = TextTable(
            columns: [.init(header: "SETTING"), .init(header: "VALUE"), .init(header: "MEANING")],
            rows: settings.map { [$0.name, $0.shownValue, $0.description] })
        call.write(json: .object(settings.map { ($0.name, .string($0.shownValue)) }), lines: table.render())
    }
}
