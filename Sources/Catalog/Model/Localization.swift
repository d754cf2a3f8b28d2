/// A product's name and description in one locale.
public struct Localization: Sendable, Hashable {
    /// The locale identifier as written in the file, e.g. `en_US`, `ja_JP`, `ar`.
    public var locale: String
    /// The name shown to the customer.
    public var displayName: String
    /// The description shown to the customer (may be empty).
    public var description: String
}
