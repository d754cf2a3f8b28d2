/// Builds JSON paths such as `$.products[2].productID` for error messages.
enum JSONPath {
    /// The root.
    static let root = "$"

    /// The path of member `key` of the object at `parent`; names that are not plain
    /// identifiers use bracket notation (`$["odd key"]`).
    static func member(_ key: String, of parent: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            }
        if plain { return parent + "." + key }
        return parent + "[\"" + escaped(key) + "\"]"
    }

    /// `key` with each backslash and quote preceded by a backslash. Product IDs (dotted) take
    /// this path at every member: a key without either comes back as it is, found by one scan
    /// of its bytes, not through Foundation's `replacingOccurrences`.
    static func escaped(_ key: String) -> String {
        let backslash = UInt8(ascii: "\\")
        let quote = UInt8(ascii: "\"")
        guard key.utf8.contains(where: { $0 == backslash || $0 == quote }) else { return key }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count + 8)
        for byte in key.utf8 {
            if byte == backslash || byte == quote { bytes.append(backslash) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The path of element `index` of the array at `parent`.
    static func element(_ index: Int, of parent: String) -> String { parent + "[\(index)]" }
}
