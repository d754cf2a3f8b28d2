/// What `ObjectReader` needs of a JSON value: its kind, its scalars, its members and elements.
///
/// Two kinds conform: `JSONElement` (a catalog read in place on the parser's tape, the fast path)
/// and `JSONValue` (a materialized tree, for sidecar files that keep readers around).
protocol JSONReadable {
    associatedtype Elements: Sequence where Elements.Element == Self

    var isNull: Bool { get }
    var isObject: Bool { get }
    var isArray: Bool { get }
    /// The text of a string, else `nil`.
    var string: String? { get }
    /// The source text of a number, else `nil`.
    var number: String? { get }
    /// The value of a boolean, else `nil`.
    var bool: Bool? { get }
    /// A short name of the JSON type for error messages (`"a string"`, `"null"`, …).
    var typeDescription: String { get }
    /// An array's elements in order; empty for any other kind.
    var elements: Elements { get }
    /// An object's member `key`, else `nil`.
    func member(_ key: String) -> Self?
    /// An object's member names (in file order where the value keeps it).
    var keys: [String] { get }
    /// An object's members other than `known`, materialized.
    func members(excluding known: KnownKeys) -> [String: JSONValue]
}

extension JSONElement: JSONReadable {
    package var isObject: Bool { kind == .object }
    var isArray: Bool { kind == .array }
    var keys: [String] { members.map { $0.key.string ?? "" } }

    func members(excluding known: KnownKeys) -> [String: JSONValue] {
        var rest: [String: JSONValue] = [:]
        for (key, value) in members where !known.contains(key) { rest[key.string ?? ""] = value.value }
        return rest
    }
}

extension JSONValue: JSONReadable {
    var isNull: Bool { self == .null }
    var isObject: Bool { if case .object = self { true } else { false } }
    var isArray: Bool { if case .array = self { true } else { false } }
    var string: String? { if case .string(let text) = self { text } else { nil } }
    var number: String? { if case .number(let text) = self { text } else { nil } }
    var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var elements: [JSONValue] { if case .array(let elements) = self { elements } else { [] } }
    func member(_ key: String) -> JSONValue? { self[key] }
    var keys: [String] { if case .object(let members) = self { Array(members.keys) } else { [] } }

    func members(excluding known: KnownKeys) -> [String: JSONValue] {
        guard case .object(let members) = self else { return [:] }
        return members.filter { !known.contains($0.key) }
    }
}
