/// One setting of the local store, declared once: its name, label, help, the values it takes
/// and the property of `LocalStoreSettings` it sets. `LocalStoreSettings.registry` lists them;
/// the store's `set(name:value:)`, persistence, the CLI's `store settings` and its help, the
/// TUI's Store Settings window and the settings table of Docs/cli.md are all made from it.
public struct SettingDefinition: Sendable {
    /// The name `store set NAME VALUE` takes, e.g. `ask-to-buy`.
    public let name: String
    /// What people read in the Store Settings window, in English (the TUI translates it through
    /// its `Strings`), e.g. `Ask to Buy`.
    public let label: String
    /// What the setting does, in a line, e.g. `purchases wait for 'store approve ID'…`.
    public let help: String
    /// The usage placeholder of its values, e.g. `on|off`.
    public let synopsis: String
    /// Its values in words, e.g. `on or off`.
    public let accepted: String
    /// The values a picker cycles through.
    public let choices: [String]
    /// The key its value is persisted under in the store's journal, e.g. `askToBuy`.
    let key: String

    private let readValue: @Sendable (LocalStoreSettings) -> (value: String, shown: String)
    private let writeValue: @Sendable (inout LocalStoreSettings, String) -> Bool
    private let decodeValue: @Sendable (KeyedDecodingContainer<SettingKey>, inout LocalStoreSettings) throws -> Void
    private let encodeValue: @Sendable (LocalStoreSettings, inout KeyedEncodingContainer<SettingKey>) throws -> Void

    /// Declares a setting.
    /// - Parameters:
    ///   - name: the name `set` takes.
    ///   - label: the window's label, in English.
    ///   - values: the values it takes and their one parser.
    ///   - help: what it does, in a line.
    ///   - key: the persisted key; never changes once released (older journals use it).
    ///   - property: the property of `LocalStoreSettings` it sets.
    public init<Value: Codable & Sendable>(
        _ name: String, label: String, values: SettingValues<Value>, help: String, key: String,
        _ property: WritableKeyPath<LocalStoreSettings, Value> & Sendable
    ) {
        self.name = name
        self.label = label
        self.help = help
        self.key = key
        synopsis = values.synopsis
        accepted = values.accepted
        choices = values.choices
        readValue = { settings in
            (values.format(settings[keyPath: property]), values.describe(settings[keyPath: property]))
        }
        writeValue = { settings, text in
            guard let value = values.parse(text) else { return false }
            settings[keyPath: property] = value
            return true
        }
        decodeValue = { container, settings in
            // Absent (written by a version without the setting): the default stays.
            if let value = try container.decodeIfPresent(Value.self, forKey: SettingKey(key)) {
                settings[keyPath: property] = value
            }
        }
        encodeValue = { settings, container in
            try container.encode(settings[keyPath: property], forKey: SettingKey(key))
        }
    }

    /// The setting and its value in `settings`, as people see it.
    public func row(in settings: LocalStoreSettings) -> StoreSetting {
        let (value, shown) = readValue(settings)
        return StoreSetting(
            name: name, label: label, value: value, shownValue: shown, synopsis: synopsis, help: help,
            choices: choices.contains(value) ? choices : [value] + choices)
    }

    /// Sets the value `text` names.
    /// - Throws: `.invalidSettingValue` naming what is accepted.
    func set(_ text: String, in settings: inout LocalStoreSettings) throws(LocalAppStoreError) {
        guard writeValue(&settings, text) else {
            throw .invalidSettingValue(name: name, value: text, accepted: accepted)
        }
    }

    /// Reads this setting's persisted value into `settings`, when there is one.
    func decode(from container: KeyedDecodingContainer<SettingKey>, into settings: inout LocalStoreSettings) throws {
        try decodeValue(container, &settings)
    }

    /// Writes this setting's value of `settings`.
    func encode(_ settings: LocalStoreSettings, into container: inout KeyedEncodingContainer<SettingKey>) throws {
        try encodeValue(settings, &container)
    }
}

/// A persisted setting's key, made from `SettingDefinition.key`.
struct SettingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
