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
        // Ranked once: by number when the value and every choice are numbers, else by place.
        let numbers = choices.compactMap(number)
        let ranked: [(choice: String, rank: Double)]
        let current: Double?
        if let valueNumber = number(value), numbers.count == choices.count {
            ranked = zip(choices, numbers).map { (choice: $0, rank: $1) }.sorted { $0.rank < $1.rank }
            current = valueNumber
        } else {
            ranked = choices.enumerated().map { (choice: $0.element, rank: Double($0.offset)) }
            current = choices.firstIndex(of: value).map(Double.init)
        }
        guard let lowest = ranked.first, let highest = ranked.last else { return value }
        guard let current else { return step > 0 ? lowest.choice : highest.choice }
        return step > 0
            ? (ranked.first { $0.rank > current } ?? lowest).choice
            : (ranked.last { $0.rank < current } ?? highest).choice
    }

    /// A choice as a number: `off` lowest, an unlimited bandwidth highest; nil for a word.
    private func number(_ choice: String) -> Double? {
        if choice == "off" { return -.infinity }
        guard let number = Double(choice) else { return nil }
        return unit == .bytesPerSecond && number == 0 ? .infinity : number
    }
}
