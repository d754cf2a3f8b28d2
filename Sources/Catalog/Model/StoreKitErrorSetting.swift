/// One entry of `_storeKitErrors`: a StoreKit API whose calls can be made to fail.
public struct StoreKitErrorSetting: Sendable, Hashable {
    /// The API, as Xcode names it (`Load Products`, `Purchase`, `Verification`, …).
    public var name: String
    /// Whether failures are switched on for it.
    public var enabled: Bool
    /// The chosen error (`current`), `nil` when the file has `null` or nothing.
    public var current: JSONValue?

    /// Creates an entry.
    public init(name: String, enabled: Bool, current: JSONValue? = nil) {
        self.name = name
        self.enabled = enabled
        self.current = current
    }
}
