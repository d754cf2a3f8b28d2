/// An object of `StreamingJSONEncoder`'s text: each member written as it is encoded.
struct JSONKeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: JSONStream
    let place: JSONStream.Place
    let slot: SlotEncoder

    var codingPath: [any CodingKey] { slot.codingPath }

    /// Writes `"key":` as the object's next member; false when the object was closed.
    private func member(_ key: Key) -> Bool {
        stream.writeKey(key, place, path: slot.codingPath + [key])
    }

    /// Writes the member `key` with `value`, encoded through a position of its own.
    private func write<T: Encodable>(_ value: T, _ key: Key) throws {
        if member(key) { try stream.value(value, in: slot, key: key) }
    }

    mutating func encodeNil(forKey key: Key) throws { if member(key) { stream.writer.raw("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if member(key) { value ? stream.writer.raw("true") : stream.writer.raw("false") }
    }
    mutating func encode(_ value: String, forKey key: Key) throws { if member(key) { stream.writer.string(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if member(key) { try stream.number(value, in: slot, key: key) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if member(key) { try stream.number(value, in: slot, key: key) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { if member(key) { stream.writer.integer(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if member(key) { stream.writer.integer(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if member(key) { stream.writer.integer(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if member(key) { stream.writer.integer(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if member(key) { stream.writer.integer(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        if member(key) { stream.writer.unsigned(UInt64(value)) }
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        if member(key) { stream.writer.unsigned(UInt64(value)) }
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        if member(key) { stream.writer.unsigned(UInt64(value)) }
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        if member(key) { stream.writer.unsigned(UInt64(value)) }
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if member(key) { stream.writer.unsigned(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try write(value, key) }

    // Optionals written here, not through the protocol's generic default: a synthesized
    // `encode(to:)` writes every optional member through these.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try write(value, key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = SlotEncoder(stream: stream, parent: slot, key: key)
        _ = member(key)
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = SlotEncoder(stream: stream, parent: slot, key: key)
        _ = member(key)
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { unsupportedSuperEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { unsupportedSuperEncoder() }

    /// A `superEncoder` would be written once it is released, after later members: refused.
    private func unsupportedSuperEncoder() -> any Encoder {
        stream.fail("superEncoder() is not supported", codingPath)
        return SlotEncoder(stream: JSONStream(), parent: nil, key: nil)
    }
}
