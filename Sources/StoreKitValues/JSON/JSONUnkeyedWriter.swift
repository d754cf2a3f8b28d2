/// An array of `StreamingJSONEncoder`'s text: each element written as it is encoded.
struct JSONUnkeyedWriter: UnkeyedEncodingContainer {
    let stream: JSONStream
    let place: JSONStream.Place
    let slot: SlotEncoder

    var codingPath: [any CodingKey] { slot.codingPath }
    var count: Int { stream.count(place) }

    /// Starts the next element; false when the array was closed.
    private func element() -> Bool { stream.enter(place, path: slot.codingPath) }

    mutating func encodeNil() throws { if element() { stream.writer.raw("null") } }
    mutating func encode(_ value: Bool) throws {
        if element() { value ? stream.writer.raw("true") : stream.writer.raw("false") }
    }
    mutating func encode(_ value: String) throws { if element() { stream.writer.string(value) } }
    mutating func encode(_ value: Double) throws { if element() { try stream.number(value, in: slot, key: nil) } }
    mutating func encode(_ value: Float) throws { if element() { try stream.number(value, in: slot, key: nil) } }
    mutating func encode(_ value: Int) throws { if element() { stream.writer.integer(value) } }
    mutating func encode(_ value: Int8) throws { if element() { stream.writer.integer(value) } }
    mutating func encode(_ value: Int16) throws { if element() { stream.writer.integer(value) } }
    mutating func encode(_ value: Int32) throws { if element() { stream.writer.integer(value) } }
    mutating func encode(_ value: Int64) throws { if element() { stream.writer.integer(value) } }
    mutating func encode(_ value: UInt) throws { if element() { stream.writer.unsigned(UInt64(value)) } }
    mutating func encode(_ value: UInt8) throws { if element() { stream.writer.unsigned(UInt64(value)) } }
    mutating func encode(_ value: UInt16) throws { if element() { stream.writer.unsigned(UInt64(value)) } }
    mutating func encode(_ value: UInt32) throws { if element() { stream.writer.unsigned(UInt64(value)) } }
    mutating func encode(_ value: UInt64) throws { if element() { stream.writer.unsigned(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if element() { try stream.value(value, in: slot, key: nil) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<
        NestedKey
    > {
        _ = element()
        return SlotEncoder(stream: stream, parent: slot, key: nil).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = element()
        return SlotEncoder(stream: stream, parent: slot, key: nil).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        stream.fail("superEncoder() is not supported", codingPath)
        return SlotEncoder(stream: JSONStream(), parent: nil, key: nil)
    }
}
