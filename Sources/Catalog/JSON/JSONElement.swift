import Foundation

/// One value of a `JSONTape`, read in place: strings are made only when asked for, object
/// members are found by comparing bytes, and nothing is copied or reference-counted.
///
/// An element points into the tape and the source bytes, so it lives only inside
/// `JSONTape.withRoot(over:_:)` or `reading(_:_:)`; keep what it yields (`String`,
/// `JSONValue`), never the element.
package struct JSONElement {
    let nodes: UnsafeBufferPointer<JSONTape.Node>
    let bytes: UnsafeBufferPointer<UInt8>
    let index: Int

    var node: JSONTape.Node { nodes[index] }
    var kind: JSONTape.Kind { nodes[index].kind }
    var isNull: Bool { kind == .null }

    /// The index just past this value's subtree.
    var end: Int {
        let node = nodes[index]
        return node.kind == .array || node.kind == .object ? Int(node.extent) : index + 1
    }

    /// A short name of the value's JSON type, as `JSONValue.typeDescription` gives it.
    var typeDescription: String { kind.typeDescription }

    private var text: UnsafeBufferPointer<UInt8> {
        let node = nodes[index]
        return UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.start) + Int(node.extent)])
    }

    /// The string's text (escapes resolved), or `nil` for any other kind.
    package var string: String? {
        let node = nodes[index]
        guard node.kind == .string else { return nil }
        if node.flags & JSONTape.Node.escaped != 0 { return JSONTape.unescape(text) }
        let text = self.text
        // Short ASCII fits in a String's inline storage, made without validating (it is ASCII).
        if node.flags == 0, text.count <= 15 {
            return String(unsafeUninitializedCapacity: text.count) { buffer in
                _ = buffer.initialize(fromContentsOf: text)
                return text.count
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The number's source text (e.g. `"-1.5e3"`), or `nil` for any other kind.
    package var number: String? {
        kind == .number ? String(decoding: text, as: UTF8.self) : nil
    }

    /// `true` or `false`, or `nil` for any other kind.
    var bool: Bool? {
        let node = nodes[index]
        return node.kind == .bool ? node.flags & JSONTape.Node.trueValue != 0 : nil
    }

    /// The number of members or elements of a container, else 0.
    package var count: Int {
        kind == .array || kind == .object ? Int(nodes[index].count) : 0
    }

    /// Whether this string is exactly `key` (as Swift compares strings: canonically equivalent
    /// spellings match, so `"\u0061"` is `a`); bytes decide when this string is plain ASCII.
    func equals(_ key: String) -> Bool {
        let node = nodes[index]
        guard node.kind == .string else { return false }
        guard node.isPlainASCII else { return string == key }
        return key.utf8.withContiguousStorageIfAvailable { equalsPlain($0) } ?? (string == key)
    }

    /// Whether this plain ASCII string's bytes are `utf8`.
    @inline(__always)
    func equalsPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[index]
        guard Int(node.extent) == utf8.count else { return false }
        // An empty key may come with a base address and nothing behind it: never read it.
        guard utf8.count > 0, let key = utf8.baseAddress else { return true }
        let start = bytes.baseAddress! + Int(node.start)
        guard start[0] == key[0] else { return false }
        return memcmp(key, start, utf8.count) == 0
    }

    /// An array's elements in order (none for other kinds).
    var elements: Elements { Elements(array: self) }

    /// An object's members in file order (none for other kinds).
    package var members: Members { Members(object: self) }

    /// The value of member `key` of an object (the only one: keys are unique), or `nil`.
    package func member(_ key: String) -> JSONElement? {
        // The key's bytes are fetched once; most names are told apart by their length.
        let found: JSONElement?? = key.utf8.withContiguousStorageIfAvailable { utf8 in
            for (name, value) in members where name.node.isPlainASCII ? name.equalsPlain(utf8) : name.string == key {
                return value
            }
            return nil
        }
        if let found { return found }
        for (name, value) in members where name.equals(key) { return value }
        return nil
    }

    /// The whole value, materialized.
    var value: JSONValue {
        switch kind {
        case .null: return .null
        case .bool: return .bool(bool ?? false)
        case .number: return .number(number ?? "")
        case .string: return .string(string ?? "")
        case .array: return .array(elements.map(\.value))
        case .object:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(count)
            for (key, value) in self.members { members[key.string ?? ""] = value.value }
            return .object(members)
        }
    }

    /// An array's elements.
    struct Elements: Sequence, IteratorProtocol {
        private var children: Children
        private let count: Int

        init(array: JSONElement) {
            children = Children(of: array, kind: .array)
            count = array.kind == .array ? array.count : 0
        }

        mutating func next() -> JSONElement? { children.next() }

        var underestimatedCount: Int { count }
    }

    /// An object's members, each its key (a string) and its value.
    package struct Members: Sequence, IteratorProtocol {
        private var children: Children

        init(object: JSONElement) { children = Children(of: object, kind: .object) }

        /// The next key and the value after it (the tape lists an object's keys and values in turn).
        package mutating func next() -> (key: JSONElement, value: JSONElement)? {
            guard let key = children.next(), let value = children.next() else { return nil }
            return (key, value)
        }
    }

    /// The values directly inside a container of `kind`, in tape order; none when the element is
    /// of another kind.
    private struct Children {
        private let container: JSONElement
        private var position: Int
        private let end: Int

        init(of container: JSONElement, kind: JSONTape.Kind) {
            self.container = container
            let matches = container.kind == kind
            position = matches ? container.index + 1 : 0
            end = matches ? container.end : 0
        }

        mutating func next() -> JSONElement? {
            guard position < end else { return nil }
            let element = JSONElement(nodes: container.nodes, bytes: container.bytes, index: position)
            position = element.end
            return element
        }
    }
}

extension JSONElement {
    /// The number as a whole number of type `T`, read from its digits; nil for another kind, a
    /// fraction or exponent, or a number out of `T`'s range.
    func integer<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? {
        let node = nodes[index]
        guard node.kind == .number, node.extent > 0 else { return nil }
        let start = Int(node.start)
        let end = start + Int(node.extent)
        let negative = bytes[start] == UInt8(ascii: "-")
        var position = negative ? start + 1 : start
        guard position < end else { return nil }
        var value: T = 0
        while position < end {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative
                ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            position += 1
        }
        return value
    }
}

extension JSONElement {
    /// Reads a whole JSON text (UTF-8) in place with the catalog's parser: for the package's own
    /// small JSON files, read at every launch, where Foundation's `JSONDecoder` costs far more
    /// than the bytes (its first use of each type looks up protocol conformances) and a
    /// `JSONValue` tree its dictionaries (hashing every member name).
    /// - Parameters:
    ///   - bytes: the text.
    ///   - body: reads the root; what it returns must not hold the element.
    /// - Returns: what `body` returns, or nil when `bytes` is not exactly one JSON value.
    package static func reading<R>(_ bytes: [UInt8], _ body: (JSONElement) -> R?) -> R? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let tape = try? JSONParser.tape(buffer) else { return nil }
            return tape.withRoot(over: buffer, body)
        }
    }
}
