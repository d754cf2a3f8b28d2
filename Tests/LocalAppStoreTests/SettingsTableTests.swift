import Foundation
import TestSupport
import Testing

@testable import LocalAppStore

/// The documents' settings tables are made from the registry: the CLI guide's (Docs/cli.md: what
/// each setting takes and does) and the journal format's (Docs/formats/journal.md: the key each
/// is persisted under and its default as JSON). Checked here, rewritten between their markers
/// when `RECORD_SNAPSHOTS` is set.
@Suite struct SettingsTableTests {
    /// A table between two markers of a document.
    struct Table: Sendable {
        let document: String
        let begin: String
        let end: String
        let make: @Sendable () throws -> String
    }

    static let guide = Table(
        document: "Docs/cli.md",
        begin:
            "<!-- settings: made from LocalStoreSettings.registry; SettingsTableTests checks it, RECORD_SNAPSHOTS=1 rewrites it -->\n",
        end: "<!-- settings:end -->", make: guideTable)

    static let journal = Table(
        document: "Docs/formats/journal.md",
        begin:
            "<!-- settings-record: made from LocalStoreSettings.registry; SettingsTableTests checks it, RECORD_SNAPSHOTS=1 rewrites it -->\n",
        end: "<!-- settings-record:end -->", make: journalTable)

    /// One row per setting, in display order, with what it takes and its default.
    static func guideTable() -> String {
        let defaults = Dictionary(uniqueKeysWithValues: LocalStoreSettings().entries.map { ($0.name, $0.value) })
        let rows = LocalStoreSettings.registry.map { setting in
            "| `\(setting.name)` | \(cell(setting.accepted)) | `\(defaults[setting.name] ?? "")` | \(cell(setting.help)) |\n"
        }
        return "| setting | values | default | what it does |\n|---|---|---|---|\n" + rows.joined()
    }

    /// One row per setting: the member of the journal's `settings` record that holds it, and its
    /// default as the journal writes it.
    static func journalTable() throws -> String {
        let encoded = try JSONEncoder().encode(LocalStoreSettings())
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        let rows = try LocalStoreSettings.registry.map { setting in
            let value = try #require(object[setting.key], "the settings record lacks \(setting.key)")
            let json = String(
                decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]), as: UTF8.self
            )
            return "| `\(setting.key)` | `\(setting.name)` | `\(json)` |\n"
        }
        return "| member | setting | default |\n|---|---|---|\n" + rows.joined()
    }

    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    @Test(arguments: [guide, journal].indices)
    func theDocumentsTablesAreTheRegistry(_ index: Int) throws {
        let table = [Self.guide, Self.journal][index]
        let url = Repository.url(table.document)
        var text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: table.begin), "\(table.document) lacks the settings markers")
        let stop = try #require(text.range(of: table.end, range: start.upperBound..<text.endIndex))
        let expected = try table.make()
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            text.replaceSubrange(start.upperBound..<stop.lowerBound, with: expected)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let current = try String(contentsOf: url, encoding: .utf8)
        let from = try #require(current.range(of: table.begin))
        let to = try #require(current.range(of: table.end, range: from.upperBound..<current.endIndex))
        #expect(
            String(current[from.upperBound..<to.lowerBound]) == expected,
            "\(table.document)'s settings table differs from LocalStoreSettings.registry (re-record with RECORD_SNAPSHOTS=1)"
        )
    }
}
