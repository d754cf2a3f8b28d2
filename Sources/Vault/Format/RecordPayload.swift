import Foundation

/// The plaintext inside one sealed record: a put of a whole item, or a delete.
enum RecordPayload: Equatable {
    case put(VaultItem)
    case delete(VaultItem.ID)

    var id: VaultItem.ID {
        switch self {
        case .put(let item): item.id
        case .delete(let id): id
        }
    }

    /// The record that opens an atomic write of `count` records (`VaultFormat.batchService`).
    static func batchMarker(count: Int) -> RecordPayload {
        var w = ByteWriter(capacity: 4)
        w.uint32(UInt32(count))
        return .put(
            VaultItem(
                id: VaultItem.ID(service: VaultFormat.batchService, account: ""),
                content: VaultItemContent(data: Data(w.bytes)), created: date(0), modified: date(0)))
    }

    /// The number of records the atomic write this record opens holds, when it opens one; 0
    /// when it is a batch marker that names no records (malformed).
    var batchCount: Int? {
        guard case .put(let item) = self, item.service == VaultFormat.batchService else { return nil }
        var r = ByteReader(Array(item.data)[...])
        guard let count = r.uint32(), r.remaining == 0 else { return 0 }
        return Int(count)
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        switch self {
        case .put(let item):
            w.uint8(1)
            w.string(item.service)
            w.string(item.account)
            w.string(item.label)
            w.int64(Self.milliseconds(item.created))
            w.int64(Self.milliseconds(item.modified))
            w.uint16(UInt16(clamping: item.attributes.count))
            for (key, value) in item.attributes.sorted(by: { $0.key < $1.key }) {
                w.string(key)
                w.string(value)
            }
            w.uint32(UInt32(clamping: item.data.count))
            w.append(item.data)
        case .delete(let id):
            w.uint8(2)
            w.string(id.service)
            w.string(id.account)
        }
        return w.bytes
    }

    /// Decodes a payload; `nil` if it is malformed (only possible with a bug or a stolen key,
    /// since the payload has already been authenticated).
    static func decode(_ bytes: [UInt8]) -> RecordPayload? {
        bytes.withUnsafeBytes { PayloadLayout.parse($0)?.payload }
    }

    /// Dates are stored as whole milliseconds since 1970, the nearest one: a date read back
    /// from the file is its millisecond give or take the Double's rounding (up to 5e-5 ms near
    /// 1970, where `Date` counts from 2001), so truncating moved it down one at every re-seal
    /// (found by the vault record fuzzer, `Fuzz/seeds/vault/crash-far-date.bin`). A date
    /// beyond what 64 bits of milliseconds hold is clamped to the nearest end, never made 1970:
    /// the extremes read from a file (`Int64.min`, `Int64.max`, whose `Double` is 2^63) must
    /// encode back to themselves (the fuzzer again, `crash-int64-min-date.bin`).
    static func milliseconds(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        if ms.isNaN { return 0 }
        if ms <= Double(Int64.min) { return .min }
        if ms >= Double(Int64.max) { return .max }
        return Int64(ms)
    }

    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    /// Rounds a date to what the file stores, so an item returned by a write equals the
    /// item read back later.
    static func stored(_ date: Date) -> Date { self.date(milliseconds(date)) }

    /// Checks an item against the format's limits before it is written.
    static func validate(_ id: VaultItem.ID, _ content: VaultItemContent) throws(VaultError) {
        func check(_ s: String, _ what: String) throws(VaultError) {
            guard s.utf8.count <= VaultFormat.maxStringLength else {
                throw .invalidItem(
                    id, reason: "\(what) is \(s.utf8.count) bytes; the limit is \(VaultFormat.maxStringLength)")
            }
        }
        try check(id.service, "the service")
        guard !id.service.hasPrefix("\u{0}") else {
            throw .invalidItem(id, reason: "services starting with NUL are reserved for the vault itself")
        }
        try check(id.account, "the account")
        try check(content.label, "the label")
        guard content.attributes.count <= VaultFormat.maxAttributes else {
            throw .invalidItem(
                id, reason: "it has \(content.attributes.count) attributes; the limit is \(VaultFormat.maxAttributes)")
        }
        for (key, value) in content.attributes {
            try check(key, "attribute name \"\(key.prefix(40))\"")
            try check(value, "attribute \"\(key.prefix(40))\"")
        }
        guard content.data.count <= VaultFormat.maxDataLength else {
            throw .invalidItem(
                id, reason: "its data is \(content.data.count) bytes; the limit is \(VaultFormat.maxDataLength)")
        }
    }
}
