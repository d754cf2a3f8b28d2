import Foundation

/// One item as its record holds it, borrowed for the length of one call of
/// `Vault.forEachItemView(service:_:)`'s body: the decrypted record's bytes are read where they
/// lie, and nothing (no string, dictionary or `Data`) is made unless asked for, so a listing of
/// a long history does not build an item a record (issue 13).
///
/// The view and `data` point into a buffer the vault reuses for the next record: read them
/// inside the body, never keep them (copy what must outlive the call, or take `item`).
/// The record was authenticated as `Vault.get` authenticates it before the body sees it.
public struct VaultItemView {
    /// The record's payload (`RecordPayload`'s encoding of a put).
    private let payload: UnsafeRawBufferPointer
    private let serviceRange: Range<Int>
    private let accountRange: Range<Int>
    private let labelRange: Range<Int>
    /// Where the attributes' name and value pairs start, and how many there are.
    private let attributesStart: Int
    private let attributeCount: Int
    /// The secret bytes, valid only during the call that handed the view over.
    public let data: UnsafeRawBufferPointer
    /// When the item was first added (millisecond precision).
    public let created: Date
    /// When the item was last written (millisecond precision).
    public let modified: Date

    /// The service.
    public var service: String { string(serviceRange) }
    /// The account within the service.
    public var account: String { string(accountRange) }
    /// The label.
    public var label: String { string(labelRange) }
    /// The item's key.
    public var id: VaultItem.ID { VaultItem.ID(service: service, account: account) }

    /// The attributes, as `VaultItem.attributes` holds them (a dictionary made now).
    public var attributes: [String: String] {
        var attributes = [String: String](minimumCapacity: attributeCount)
        forEachAttribute { key, value in attributes[string(key)] = string(value) }
        return attributes
    }

    /// The attribute `name`, as `attributes[name]` gives it, with only the answer made.
    public func attribute(_ name: String) -> String? {
        var found: Range<Int>?
        forEachAttribute { key, value in if Self.equal(bytes(key), name) { found = value } }
        return found.map(string)
    }

    /// Whether the item belongs to `service` (`String` equality, as `item.service == service`).
    public func isService(_ service: String) -> Bool { Self.equal(bytes(serviceRange), service) }

    /// The item itself, made now (its strings, attributes and a copy of its data).
    public var item: VaultItem {
        VaultItem(
            id: id, content: VaultItemContent(data: Data(data), label: label, attributes: attributes),
            created: created, modified: modified)
    }

    /// What the record's item tag authenticates: the service and the account as encoded.
    var idBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: payload[1..<accountRange.upperBound]) }

    init(
        payload: UnsafeRawBufferPointer, service: Range<Int>, account: Range<Int>, label: Range<Int>,
        created: Date, modified: Date, attributesStart: Int, attributeCount: Int, data: Range<Int>
    ) {
        self.payload = payload
        serviceRange = service
        accountRange = account
        labelRange = label
        self.created = created
        self.modified = modified
        self.attributesStart = attributesStart
        self.attributeCount = attributeCount
        self.data = UnsafeRawBufferPointer(rebasing: payload[data])
    }

    private func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: payload[range])
    }

    /// A string the parse checked to be UTF-8 (so decoding it changes nothing).
    private func string(_ range: Range<Int>) -> String { String(decoding: bytes(range), as: UTF8.self) }

    /// Each attribute's name and value, in the record's order (the parse checked their extents).
    private func forEachAttribute(_ body: (Range<Int>, Range<Int>) -> Void) {
        var position = attributesStart
        func next() -> Range<Int> {
            let length = Int(payload[position]) | Int(payload[position + 1]) << 8
            defer { position += 2 + length }
            return (position + 2)..<(position + 2 + length)
        }
        for _ in 0..<attributeCount {
            let key = next()
            body(key, next())
        }
    }

    /// Whether UTF-8 `bytes` make a string equal to `string`: bytes compared when both are
    /// ASCII (then `String` equality is byte equality), else `String`'s own equality
    /// (canonical equivalence), as comparing the strings made from them would answer.
    static func equal(_ bytes: UnsafeRawBufferPointer, _ string: String) -> Bool {
        var string = string
        return string.withUTF8 { text in
            if text.count == bytes.count, Self.isASCII(UnsafeRawBufferPointer(text)), Self.isASCII(bytes) {
                return text.elementsEqual(bytes)
            }
            if Self.isASCII(UnsafeRawBufferPointer(text)), Self.isASCII(bytes) { return false }
            return String(decoding: bytes, as: UTF8.self) == String(decoding: text, as: UTF8.self)
        }
    }

    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var union: UInt8 = 0
        for byte in bytes { union |= byte }
        return union < 0x80
    }
}
