/// A JSON value exactly as it appeared in a catalog file.
///
/// Numbers keep their source text (`"0.99"` stays `0.99`, never a binary float), so values the
/// catalog does not model can be kept in `extra` dictionaries and written back unchanged.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its source text (e.g. `"6"`, `"-1.5e3"`).
    case number(String)
    /// A string.
    case string(String)
    /// An array, in file order.
    case array([JSONValue])
    /// An object; member order is not kept.
    case object([String: JSONValue])

    /// A short name of the value's JSON type, for error messages (`"a string"`, `"null"`, …).
    public var typeDescription: String {
        let kind: JSONTape.Kind =
            switch self {
            case .null: .null
            case .bool: .bool
            case .number: .number
            case .string: .string
            case .array: .array
            case .object: .object
            }
        return kind.typeDescription
    }

    /// The member `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The number as a whole number of type `T`, when it is one that fits.
    package func integer<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? {
        if case .number(let text) = self { return T(text) }
        return nil
    }
}
