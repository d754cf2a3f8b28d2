/// The `Encoder` a value is encoded through by `StreamingJSONEncoder`: one position in the
/// text, filled by the first container asked for (asked again, the same one) or by one
/// single value. It is its own single-value container, as `JSONEncoder`'s is.
final class SlotEncoder: Encoder, SingleValueEncodingContainer {
    private let stream: JSONStream
    private let parent: SlotEncoder?
    private let key: (any CodingKey)?
    /// The container this position holds, once asked for.
    private var container: (place: JSONStream.Place, keyed: Bool)?
    /// Whether anything was written at this position.
    private(set) var wrote = false

    init(stream: JSONStream, parent: SlotEncoder?, key: (any CodingKey)?) {
        self.stream = stream
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var slot: SlotEncoder? = self
        while let current = slot {
            if let key = current.key { path.append(key) }
            slot = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONKeyedWriter<Key>(stream: stream, place: open(keyed: true), slot: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONUnkeyedWriter(stream: stream, place: open(keyed: false), slot: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The container at this position: opened now, or the one opened before.
    private func open(keyed: Bool) -> JSONStream.Place {
        if let container {
            if container.keyed != keyed { stream.fail("a keyed and an unkeyed container at one position", codingPath) }
            return container.place
        }
        if wrote { stream.fail("a container after a single value at one position", codingPath) }
        wrote = true
        let place = keyed ? stream.push(0x7B, 0x7D) : stream.push(0x5B, 0x5D)
        container = (place, keyed)
        return place
    }

    /// Claims this position for one single value.
    private func single() -> Bool {
        guard !wrote else {
            stream.fail("two values at one position", codingPath)
            return false
        }
        wrote = true
        return true
    }

    // MARK: - SingleValueEncodingContainer

    func encodeNil() throws { if single() { stream.writer.raw("null") } }
    func encode(_ value: Bool) throws { if single() { value ? stream.writer.raw("true") : stream.writer.raw("false") } }
    func encode(_ value: String) throws { if single() { stream.writer.string(value) } }
    func encode(_ value: Double) throws { if single() { try stream.number(value, in: parent, key: key) } }
    func encode(_ value: Float) throws { if single() { try stream.number(value, in: parent, key: key) } }
    func encode(_ value: Int) throws { if single() { stream.writer.integer(value) } }
    func encode(_ value: Int8) throws { if single() { stream.writer.integer(value) } }
    func encode(_ value: Int16) throws { if single() { stream.writer.integer(value) } }
    func encode(_ value: Int32) throws { if single() { stream.writer.integer(value) } }
    func encode(_ value: Int64) throws { if single() { stream.writer.integer(value) } }
    func encode(_ value: UInt) throws { if single() { stream.writer.unsigned(UInt64(value)) } }
    func encode(_ value: UInt8) throws { if single() { stream.writer.unsigned(UInt64(value)) } }
    func encode(_ value: UInt16) throws { if single() { stream.writer.unsigned(UInt64(value)) } }
    func encode(_ value: UInt32) throws { if single() { stream.writer.unsigned(UInt64(value)) } }
    func encode(_ value: UInt64) throws { if single() { stream.writer.unsigned(value) } }
    func encode<T: Encodable>(_ value: T) throws { if single() { try stream.value(value, in: parent, key: key) } }
}
