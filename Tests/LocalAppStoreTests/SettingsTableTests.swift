import Foundation
import TestSupport
import Testing

@testable import LocalAppStore

/// The settings table of the CLI's guide (Docs/cli.md) is made from the registry: checked here,
/// rewritten between its markers when `RECORD_SNAPSHOTS` is set.
@Suite struct SettingsTableTests {
    static let guide = Repository.url("Docs/cli.md")
    static let begin =
        "<!-- settings: made from LocalStoreSettings.registry; SettingsTableTests checks it, RECORD_SNAPSHOTS=1 rewrites it -->\n"
    static let end = "<!-- settings:end -->"

    /// The table: one row per setting, in display order, with what it takes and its default.
    static func table() -> String {
        let defaults = Dictionary(uniqueKeysWithValues: LocalStoreSettings().entries.map { ($0.name, $0.value) })
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        let rows = LocalStoreSettings.registry.map { setting in
            "| `\(setting.name)` | \(cell(setting.accepted)) | `\(defaults[setting.name] ?? "")` | \(cell(setting.help)) |\n"
        }
        return "| setting | values | default | what it does |\n|---|---|---|---|\n" + rows.joined()
    }

    @Test func theGuidesTableIsTheRegistry() throws {
        var text = try String(contentsOf: Self.guide, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "Docs/cli.md lacks the settings markers")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            text.replaceSubrange(start.upperBound..<stop.lowerBound, with: Self.table())
            try text.write(to: Self.guide, atomically: true, encoding: .utf8)
        }
        let current = try String(contentsOf: Self.guide, encoding: .utf8)
        let from = try #require(current.range(of: Self.begin))
        let to = try #require(current.range(of: Self.end, range: from.upperBound..<current.endIndex))
        #expect(
            String(current[from.upperBound..<to.lowerBound]) == Self.table(),
            "Docs/cli.md's settings table differs from LocalStoreSettings.registry (re-record with RECORD_SNAPSHOTS=1)")
    }
}
