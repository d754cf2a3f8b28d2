import Foundation

/// Encodes `Encodable` values as JSON text written straight into bytes as the values are
/// encoded: what Foundation's `JSONEncoder` with its default options writes for each value
/// (the same escapes, numbers, dates as seconds since 2001, data as base64, URLs and decimals
/// as it writes them), without building its tree of values and dictionaries first
/// (Docs/decisions/0142-journal-lines-written-by-a-streaming-encoder.md).
///
/// An object's members come in the order they are encoded (a synthesized `encode(to:)`'s
/// declaration order), where `JSONEncoder` writes them in its dictionary's order, which
/// changes from one process to the next; a reader of JSON sees the same object either way.
///
/// Values are written in order, so a container can take elements only while nothing encoded
/// after it is still open: what every synthesized `encode(to:)` does. A value that writes into
/// a container after a later one (or asks for a `superEncoder`) fails with
/// `EncodingError.invalidValue` rather than writing wrong text.
///
/// Options take the place of `JSONEncoder`'s for the App Store's JWS (`JWSCoding`): dates as an
/// integer, each object's members sorted by their keys' UTF-8 bytes (`.sortedKeys`), and `/`
/// not escaped (`.withoutEscapingSlashes`).
package struct StreamingJSONEncoder: Sendable {
    /// How a `Date` is written.
    package enum DateEncoding: Sendable {
        /// Seconds since 2001 as a number: `JSONEncoder`'s default.
        case secondsSinceReferenceDate
        /// The integer `convert` makes of it; nil (out of range) fails with `EncodingError.invalidValue`.
        case integer(_ convert: @Sendable (Date) -> Int64?)
    }

    /// How dates are written.
    package var dateEncoding: DateEncoding
    /// Whether each object's members are written in the order of their keys' UTF-8 bytes.
    package var sortsKeys: Bool
    /// Whether `/` is written `\/`.
    package var escapesSlashes: Bool

    /// Creates an encoder; by default it writes what `JSONEncoder` with its default options writes.
    package init(
        dateEncoding: DateEncoding = .secondsSinceReferenceDate, sortsKeys: Bool = false, escapesSlashes: Bool = true
    ) {
        self.dateEncoding = dateEncoding
        self.sortsKeys = sortsKeys
        self.escapesSlashes = escapesSlashes
    }

    /// The JSON text of `value`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a value encoded out of order.
    package func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try append(value, to: &bytes)
        return bytes
    }

    /// Appends the JSON text of `value` to `bytes` (left as it was when this throws).
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a value encoded out of order.
    package func append<T: Encodable>(_ value: T, to bytes: inout [UInt8]) throws {
        let start = bytes.count
        let stream = JSONStream(dateEncoding: dateEncoding, sortsKeys: sortsKeys)
        stream.writer.escapesSlashes = escapesSlashes
        swap(&bytes, &stream.writer.bytes)
        defer { swap(&bytes, &stream.writer.bytes) }
        do {
            try stream.value(value, in: nil, key: nil)
            if let failure = stream.failure { throw failure }
        } catch {
            stream.writer.bytes.removeSubrange(start...)
            throw error
        }
    }
}

/// The text being written and its open containers, outermost first.
final class JSONStream {
    struct Frame {
        let serial: Int
        let closer: UInt8
        var count = 0
        /// When keys are sorted, an object's members so far: each key and where its text starts.
        var members: [(key: String, start: Int)]?
    }

    @exclusivity(unchecked) var writer = JSONTextWriter(bytes: [])
    @exclusivity(unchecked) private var open: [Frame] = []
    private var serials = 0
    /// The first misuse met (a container written after a later one), thrown at the end.
    private(set) var failure: EncodingError?
    let dateEncoding: StreamingJSONEncoder.DateEncoding
    let sortsKeys: Bool

    init(dateEncoding: StreamingJSONEncoder.DateEncoding = .secondsSinceReferenceDate, sortsKeys: Bool = false) {
        self.dateEncoding = dateEncoding
        self.sortsKeys = sortsKeys
    }

    /// Where a container's elements go: its level among the open containers and its serial.
    struct Place {
        let level: Int
        let serial: Int
    }

    /// Opens a container (`{` or `[`) at the current position.
    func push(_ opener: UInt8, _ closer: UInt8) -> Place {
        writer.bytes.append(opener)
        serials += 1
        open.append(Frame(serial: serials, closer: closer, members: sortsKeys && opener == 0x7B ? [] : nil))
        return Place(level: open.count - 1, serial: serials)
    }

    /// Closes every container above `level`.
    func close(above level: Int) {
        while open.count > level {
            let frame = open.removeLast()
            if let members = frame.members { sort(members) }
            writer.bytes.append(frame.closer)
        }
    }

    /// Puts an object's members, just written (the last one runs to the end of the text), in
    /// the order of their keys' UTF-8 bytes, as `JSONEncoder`'s `.sortedKeys` does.
    private func sort(_ members: [(key: String, start: Int)]) {
        guard members.count > 1 else { return }
        let order = members.indices.sorted { members[$0].key.utf8.lexicographicallyPrecedes(members[$1].key.utf8) }
        guard order != Array(members.indices) else { return }
        let end = writer.bytes.count
        var sorted: [UInt8] = []
        sorted.reserveCapacity(end - members[0].start)
        for index in order {
            if !sorted.isEmpty { sorted.append(0x2C) }
            // Each member but the last ends before the comma that starts the next.
            let stop = index + 1 < members.count ? members[index + 1].start - 1 : end
            sorted.append(contentsOf: writer.bytes[members[index].start..<stop])
        }
        writer.bytes.replaceSubrange(members[0].start..<end, with: sorted)
    }

    /// Starts the next element of the container at `place` (an object's member named `key`):
    /// closes what is open inside it and writes the comma. False (and the failure noted) when
    /// the container was closed.
    func enter(_ place: Place, key: String? = nil, path: @autoclosure () -> [any CodingKey]) -> Bool {
        guard place.level < open.count, open[place.level].serial == place.serial else {
            fail("a container was written to after a later value", path())
            return false
        }
        close(above: place.level + 1)
        if open[place.level].count > 0 { writer.bytes.append(0x2C) }
        open[place.level].count += 1
        if let key { open[place.level].members?.append((key, writer.bytes.count)) }
        return true
    }

    /// Writes `"key":` as the next member of the object at `place`; false (and the failure
    /// noted) when the object was closed.
    func writeKey(_ key: some CodingKey, _ place: Place, path: @autoclosure () -> [any CodingKey]) -> Bool {
        let name = key.stringValue
        guard enter(place, key: name, path: path()) else { return false }
        writer.string(name)
        writer.bytes.append(0x3A)
        return true
    }

    /// The elements written so far into the container at `place`.
    func count(_ place: Place) -> Int {
        place.level < open.count && open[place.level].serial == place.serial ? open[place.level].count : 0
    }

    func fail(_ reason: String, _ path: [any CodingKey]) {
        if failure == nil {
            failure = .invalidValue(
                reason, EncodingError.Context(codingPath: path, debugDescription: "StreamingJSONEncoder: \(reason)"))
        }
    }

    /// Writes `value` at the current position: the types `JSONEncoder` writes its own way
    /// first, then anything else through its `encode(to:)` (`{}` when it encodes nothing).
    func value<T: Encodable>(_ value: T, in parent: SlotEncoder?, key: (any CodingKey)?) throws {
        // `_identityCast` once the type is known: `as!` would ask the runtime to cast each value.
        if T.self == String.self {
            writer.string(_identityCast(value, to: String.self))
        } else if T.self == Int.self {
            writer.integer(_identityCast(value, to: Int.self))
        } else if T.self == Bool.self {
            _identityCast(value, to: Bool.self) ? writer.raw("true") : writer.raw("false")
        } else if T.self == Double.self {
            try number(_identityCast(value, to: Double.self), in: parent, key: key)
        } else if T.self == UInt64.self {
            writer.unsigned(_identityCast(value, to: UInt64.self))
        } else if T.self == Int64.self {
            writer.integer(_identityCast(value, to: Int64.self))
        } else if T.self == Date.self {
            try date(_identityCast(value, to: Date.self), in: parent, key: key)
        } else if T.self == Data.self {
            writer.string(_identityCast(value, to: Data.self).base64EncodedString())
        } else if T.self == URL.self {
            writer.string(_identityCast(value, to: URL.self).absoluteString)
        } else if T.self == Transaction.self {
            try write(_identityCast(value, to: Transaction.self), in: parent, key: key)
        } else if T.self == Payment.self {
            try write(_identityCast(value, to: Payment.self), in: parent, key: key)
        } else if T.self == Decimal.self {
            writer.bytes.append(contentsOf: _identityCast(value, to: Decimal.self).description.utf8)
        } else {
            let depth = open.count
            let slot = SlotEncoder(stream: self, parent: parent, key: key)
            try value.encode(to: slot)
            close(above: depth)
            if !slot.wrote { writer.raw("{}") }
        }
    }

    /// Writes a date as `dateEncoding` says.
    func date(_ date: Date, in parent: SlotEncoder?, key: (any CodingKey)?) throws {
        switch dateEncoding {
        case .secondsSinceReferenceDate:
            try number(date.timeIntervalSinceReferenceDate, in: parent, key: key)
        case .integer(let convert):
            guard let integer = convert(date) else {
                let path = (parent?.codingPath ?? []) + (key.map { [$0] } ?? [])
                throw EncodingError.invalidValue(
                    date, EncodingError.Context(codingPath: path, debugDescription: "date out of range"))
            }
            writer.integer(integer)
        }
    }

    /// Writes a finite number; a non-finite one throws as `JSONEncoder` does.
    func number<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, in parent: SlotEncoder?, key: (any CodingKey)?
    ) throws {
        guard value.isFinite else {
            let path = (parent?.codingPath ?? []) + (key.map { [$0] } ?? [])
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON.")
            )
        }
        writer.number(value)
    }
}
