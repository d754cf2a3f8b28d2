import Foundation

/// Where a record payload's parts lie (`RecordPayload.encoded()`'s layout), found and checked in
/// place: `RecordPayload.decode` and a listing's `VaultItemView`s both read through this one
/// parse, so both accept and refuse exactly the same payloads.
enum PayloadLayout {
    /// A put: the item, borrowed from the payload's bytes.
    case put(VaultItemView)
    /// A delete of `id`; `idBytes` are its service and account as encoded.
    case delete(VaultItem.ID, idBytes: UnsafeRawBufferPointer)

    /// What the item tag authenticates: the service and the account as encoded.
    var idBytes: UnsafeRawBufferPointer {
        switch self {
        case .put(let view): view.idBytes
        case .delete(_, let idBytes): idBytes
        }
    }

    /// The payload as a value (the put's item made now).
    var payload: RecordPayload {
        switch self {
        case .put(let view): .put(view.item)
        case .delete(let id, _): .delete(id)
        }
    }

    /// The layout of `payload`, or `nil` when it is malformed: a field cut short, a string that
    /// is not UTF-8, more attributes than the format allows, bytes left over, an unknown kind.
    static func parse(_ payload: UnsafeRawBufferPointer) -> PayloadLayout? {
        var r = Reader(bytes: payload)
        guard let op = r.uint8(), let service = r.string(), let account = r.string() else { return nil }
        switch op {
        case 1:
            guard let label = r.string(), let created = r.int64(), let modified = r.int64(),
                let count = r.uint16(), Int(count) <= VaultFormat.maxAttributes
            else { return nil }
            let attributesStart = r.position
            for _ in 0..<count {
                guard r.string() != nil, r.string() != nil else { return nil }
            }
            guard let length = r.uint32(), let data = r.take(Int(length)), r.remaining == 0 else { return nil }
            return .put(
                VaultItemView(
                    payload: payload, service: service, account: account, label: label,
                    created: RecordPayload.date(created), modified: RecordPayload.date(modified),
                    attributesStart: attributesStart, attributeCount: Int(count), data: data))
        case 2:
            guard r.remaining == 0 else { return nil }
            let text = { (range: Range<Int>) in
                String(decoding: UnsafeRawBufferPointer(rebasing: payload[range]), as: UTF8.self)
            }
            return .delete(
                VaultItem.ID(service: text(service), account: text(account)),
                idBytes: UnsafeRawBufferPointer(rebasing: payload[1..<account.upperBound]))
        default:
            return nil
        }
    }

    /// `ByteReader`'s reads over borrowed bytes, giving extents instead of copies.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var remaining: Int { bytes.count - position }

        mutating func take(_ count: Int) -> Range<Int>? {
            guard count >= 0, count <= remaining else { return nil }
            defer { position += count }
            return position..<(position + count)
        }

        mutating func uint8() -> UInt8? { take(1).map { bytes[$0.lowerBound] } }

        mutating func uint16() -> UInt16? { integer(UInt16.self) }

        mutating func uint32() -> UInt32? { integer(UInt32.self) }

        mutating func int64() -> Int64? { integer(UInt64.self).map { Int64(bitPattern: $0) } }

        /// A 16-bit length and that many bytes of UTF-8 (`ByteReader.string()`'s check).
        mutating func string() -> Range<Int>? {
            guard let length = uint16(), let range = take(Int(length)) else { return nil }
            let text = UnsafeRawBufferPointer(rebasing: bytes[range])
            guard
                VaultItemView.isASCII(text)
                    || String(validating: text.assumingMemoryBound(to: UInt8.self), as: UTF8.self) != nil
            else {
                return nil
            }
            return range
        }

        private mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
            guard let range = take(MemoryLayout<T>.size) else { return nil }
            var value: T = 0
            for (shift, index) in range.enumerated() { value |= T(bytes[index]) << (8 * shift) }
            return value
        }
    }
}
