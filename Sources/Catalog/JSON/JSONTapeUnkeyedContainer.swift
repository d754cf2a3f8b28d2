/// The elements of a JSON array on a tape, in order, as an unkeyed container of `JSONTapeDecoder`.
struct JSONTapeUnkeyedContainer: UnkeyedDecodingContainer {
    private let array: JSONElement
    let codingPath: [any CodingKey]
    let count: Int?
    private(set) var currentIndex = 0
    /// The tape index of the next element.
    private var position: Int

    init(array: JSONElement, codingPath: [any CodingKey]) {
        self.array = array
        self.codingPath = codingPath
        count = array.count
        position = array.index + 1
    }

    var isAtEnd: Bool { currentIndex >= array.count }

    mutating func decodeNil() throws -> Bool {
        let element = try peek(Any?.self)
        guard element.element.isNull else { return false }
        advance(past: element)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { try next((any Decoder).self) { $0 } }

    /// Decodes the next element with `body` and steps past it once it decoded.
    private mutating func next<T>(_ type: T.Type, _ body: (JSONElementDecoder) throws -> T) throws -> T {
        let element = try peek(type)
        let value = try body(element)
        advance(past: element)
        return value
    }

    /// The decoder of the next element.
    /// - Throws: `DecodingError.valueNotFound` past the last element.
    private func peek<T>(_ type: T.Type) throws -> JSONElementDecoder {
        let path = codingPath + [JSONIndexKey(index: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "the array has only \(array.count) elements"))
        }
        return JSONElementDecoder(
            element: JSONElement(nodes: array.nodes, bytes: array.bytes, index: position), codingPath: path)
    }

    private mutating func advance(past decoder: JSONElementDecoder) {
        position = decoder.element.end
        currentIndex += 1
    }
}
