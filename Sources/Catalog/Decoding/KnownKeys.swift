/// The member names a decoder models, matched against keys on the tape without making strings.
struct KnownKeys: ExpressibleByArrayLiteral {
    private let names: [String]
    private let utf8: [[UInt8]]
    private let set: Set<String>

    init(arrayLiteral names: String...) { self.init(names) }

    init(_ names: [String]) {
        self.names = names
        utf8 = names.map { Array($0.utf8) }
        set = Set(names)
    }

    /// These names and `more`.
    func union(_ more: [String]) -> KnownKeys { KnownKeys(names + more) }

    func contains(_ key: String) -> Bool { set.contains(key) }

    /// Whether key `key` (a string on the tape) is one of the names; plain ASCII keys are compared
    /// byte for byte, others (escaped, non-ASCII) as strings.
    func contains(_ key: JSONElement) -> Bool {
        guard key.node.isPlainASCII else { return key.string.map(set.contains) ?? false }
        return utf8.contains { name in
            name.count == Int(key.node.extent) && name.withUnsafeBufferPointer(key.equalsPlain)
        }
    }
}
