/// One setting of the local store with its current value, as people see it: made from its
/// declaration (`SettingDefinition`) by `LocalStoreSettings.entries`.
public struct StoreSetting: Hashable, Sendable {
    /// The name `set(name:value:)` takes, e.g. `ask-to-buy`.
    public let name: String
    /// The Store Settings window's label, in English, e.g. `Ask to Buy`.
    public let label: String
    /// The current value as `set` takes it, e.g. `on`, `600`, `network`, `every-2-seconds`.
    public let value: String
    /// The current value as `store settings` shows it, e.g. `every-2-seconds (1005)`.
    public let shownValue: String
    /// The usage placeholder of its values, e.g. `on|off`.
    public let synopsis: String
    /// What the setting does, in a line.
    public let help: String
    /// The values a picker cycles through, the current one included.
    public let choices: [String]

    /// Its values and what it does, e.g. `on|off: purchases wait for …`.
    public var description: String { "\(synopsis): \(help)" }

}
