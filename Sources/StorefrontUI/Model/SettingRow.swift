/// One row of the Store Settings window: a setting of the local App Store with its value.
///
/// The storefront builds the rows from the local store's one registry of settings
/// (`LocalStoreSettings.registry`: name, label, choices), so no fact about a setting is written
/// here; this module only shows them and cycles `value` through `choices` (toggles `on`/`off`).
public struct SettingRow: Hashable, Sendable {
    /// What a numeric value counts, so the window can say `1.0 MB/s` or `Unlimited`.
    public enum Unit: Hashable, Sendable {
        case none, milliseconds, bytesPerSecond
    }

    /// The setting's name for `Effect.setSetting` (`ask-to-buy`, `latency`).
    public var name: String
    /// What people read (English; localized through `Strings` when a translation exists).
    public var label: String
    /// The current value, as `Effect.setSetting` takes it.
    public var value: String
    /// The values to cycle through.
    public var choices: [String]
    /// What the number counts, if it is one.
    public var unit: Unit
    /// What the setting does, in a line (English).
    public var help: String

    /// Creates a row.
    public init(name: String, label: String, value: String, choices: [String], unit: Unit = .none, help: String = "") {
        self.name = name
        self.label = label
        self.value = value
        self.choices = choices
        self.unit = unit
        self.help = help
    }

    /// The value after the current one (or before it, with `step` -1), wrapping around.
    public func cycled(by step: Int) -> String {
        guard !choices.isEmpty else { return value }
        let index = choices.firstIndex(of: value) ?? -step
        let next = ((index + step) % choices.count + choices.count) % choices.count
        return choices[next]
    }
}
