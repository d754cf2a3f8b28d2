/// Little-endian serialisation into a growing byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func append<Bytes: Sequence>(_ raw: Bytes) where Bytes.Element == UInt8 { bytes.append(contentsOf: raw) }

    mutating func uint8(_ v: UInt8) { bytes.append(v) }

    mutating func uint16(_ v: UInt16) { integer(v) }

    mutating func uint32(_ v: UInt32) { integer(v) }

    mutating func uint64(_ v: UInt64) { integer(v) }

    mutating func int64(_ v: Int64) { integer(UInt64(bitPattern: v)) }

    /// A UTF-8 string with a 16-bit length prefix; callers check the length first.
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            uint16(UInt16(clamping: utf8.count))
            bytes.append(contentsOf: utf8.prefix(Int(UInt16.max)))
        }
    }

    private mutating func integer<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
