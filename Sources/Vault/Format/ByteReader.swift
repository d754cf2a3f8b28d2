/// Bounds-checked little-endian reading from a byte buffer; every read returns `nil`
/// instead of trapping when the input is too short.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func uint8() -> UInt8? { take(1)?.first }

    mutating func uint16() -> UInt16? { integer(UInt16.self) }

    mutating func uint32() -> UInt32? { integer(UInt32.self) }

    mutating func uint64() -> UInt64? { integer(UInt64.self) }

    mutating func int64() -> Int64? { uint64().map { Int64(bitPattern: $0) } }

    /// A UTF-8 string with a 16-bit length prefix.
    mutating func string() -> String? {
        guard let length = uint16(), let raw = take(Int(length)) else { return nil }
        return raw.withUnsafeBufferPointer { bytes in
            // ASCII (nearly every string here) is valid UTF-8 as it is.
            bytes.allSatisfy { $0 < 0x80 }
                ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        }
    }

    private mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
        guard let raw = take(MemoryLayout<T>.size) else { return nil }
        var value: T = 0
        for (shift, byte) in raw.enumerated() { value |= T(byte) << (8 * shift) }
        return value
    }
}
