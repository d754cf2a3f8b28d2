/// One setting of the local store as people see it: its name, its value and what it does.
public struct StoreSetting: Hashable, Sendable {
    /// The name `set(name:value:)` takes, e.g. `ask-to-buy`.
    public let name: String
    /// The current value as text, e.g. `on`, `600`, `network`.
    public let value: String
    /// What the setting does and which values it takes.
    public let description: String

    /// Creates a setting row.
    public init(name: String, value: String, description: String) {
        self.name = name
        self.value = value
        self.description = description
    }
}
