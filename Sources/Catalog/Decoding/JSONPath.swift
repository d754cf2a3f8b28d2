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
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return parent + "[\"" + escaped + "\"]"
    }

    /// The path of element `index` of the array at `parent`.
    static func element(_ index: Int, of parent: String) -> String { parent + "[\(index)]" }
}
