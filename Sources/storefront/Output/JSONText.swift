/// JSON written with a fixed member order, for the stable `--json` contract.
///
/// Numbers are written from their decimal text, never through a binary float.
indirect enum JSONText: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number from its exact decimal text, e.g. `"1"`.
    case number(String)
    case string(String)
    case array([JSONText])
    /// Members in the order they are written.
    case object([(String, JSONText)])

    static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.rendered() == rhs.rendered() }

    /// `value` as a string, or `null` when it is `nil`.
    static func optional(_ value: String?) -> JSONText { value.map(JSONText.string) ?? .null }

    /// Pretty-printed JSON with two-space indents and a final newline.
    func rendered() -> String {
        var out = ""
        write(into: &out, indent: 0)
        return out + "\n"
    }

    private func write(into out: inout String, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): Self.writeString(text, into: &out)
        case .array(let elements):
            if elements.isEmpty {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                element.write(into: &out, indent: indent + 1)
                out += index < elements.count - 1 ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                Self.writeString(key, into: &out)
                out += ": "
                value.write(into: &out, indent: indent + 1)
                out += index < members.count - 1 ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }

    private static func writeString(_ text: String, into out: inout String) {
        out += "\""
        // Runs that need no escape are appended whole: one copy, however long the string.
        let scalars = text.unicodeScalars
        var run = scalars.startIndex
        var index = run
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            let next = scalars.index(after: index)
            if let escape {
                out += Substring(scalars[run..<index])
                out += escape
                run = next
            }
            index = next
        }
        out += Substring(scalars[run...])
        out += "\""
    }
}
