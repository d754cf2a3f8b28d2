/// One setting of the local App Store, as the Store Settings window edits it.
///
/// `name` is the name `storefront store set NAME VALUE` takes; the value cycles through
/// `choices` (toggles are `on`/`off`).
public struct StoreSetting: Hashable, Sendable {
    /// The setting's name for `Effect.setSetting` (`ask-to-buy`, `latency`).
    public var name: String
    /// What people read (English; localized through `Strings` when a translation exists).
    public var label: String
    /// The current value.
    public var value: String
    /// The values to cycle through.
    public var choices: [String]

    /// Creates a setting.
    public init(name: String, label: String, value: String, choices: [String]) {
        self.name = name
        self.label = label
        self.value = value
        self.choices = choices
    }

    /// The value after the current one (or before it, with `step` -1), wrapping around.
    public func cycled(by step: Int) -> String {
        guard !choices.isEmpty else { return value }
        let index = choices.firstIndex(of: value) ?? -step
        let next = ((index + step) % choices.count + choices.count) % choices.count
        return choices[next]
    }
}
