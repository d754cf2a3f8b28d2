/// One row of the Store Settings window: a setting of the local App Store with its value.
///
/// The storefront builds the rows from the local store's one registry of settings
/// (`LocalStoreSettings.registry`: name, label, choices), so no fact about a setting is written
/// here; this module only shows them and steps `value` through `choices` (toggles `on`/`off`).
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

    /// The next higher choice (`step` 1, →) or the next lower one (-1, ←), wrapping around.
    ///
    /// Numbers go by value whatever order the choices come in, so a value that is no preset (a
    /// default, one set from the CLI) steps to its neighbours; `off` is below every number and
    /// an unlimited bandwidth (0) above every other. Words keep the choices' order.
    public func cycled(by step: Int) -> String {
        guard !choices.isEmpty else { return value }
        guard let rank = rank(value), choices.allSatisfy({ self.rank($0) != nil }) else {
            guard let index = choices.firstIndex(of: value) else { return step > 0 ? choices[0] : choices[choices.count - 1] }
            return choices[((index + step) % choices.count + choices.count) % choices.count]
        }
        let others = choices.compactMap { choice in self.rank(choice).map { (choice, $0) } }.filter { $0.1 != rank }
        guard !others.isEmpty else { return value }
        let higher = others.filter { $0.1 > rank }, lower = others.filter { $0.1 < rank }
        if step > 0 { return (higher.min { $0.1 < $1.1 } ?? others.min { $0.1 < $1.1 })?.0 ?? value }
        return (lower.max { $0.1 < $1.1 } ?? others.max { $0.1 < $1.1 })?.0 ?? value
    }

    /// Where a choice stands among numbers: `off` lowest, an unlimited bandwidth highest; nil
    /// for a word.
    private func rank(_ choice: String) -> Double? {
        if choice == "off" { return -.infinity }
        guard let number = Double(choice) else { return nil }
        return unit == .bytesPerSecond && number == 0 ? .infinity : number
    }
}
