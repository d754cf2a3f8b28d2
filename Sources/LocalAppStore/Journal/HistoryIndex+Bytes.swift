/// The little-endian integers of an index run's header and pages (and of the archive's frames).
extension HistoryIndex {
    /// Little-endian reading of a buffer whose length the caller checked.
    struct Reader {
        let bytes: [UInt8]
        var position: Int
        init(_ bytes: [UInt8], at position: Int) {
            self.bytes = bytes
            self.position = position
        }
        mutating func uint16() -> UInt16 { UInt16(truncatingIfNeeded: integer(2)) }
        mutating func uint32() -> UInt32 { UInt32(truncatingIfNeeded: integer(4)) }
        mutating func uint64() -> UInt64 { integer(8) }
        private mutating func integer(_ size: Int) -> UInt64 {
            var value: UInt64 = 0
            if position >= 0, position + 8 <= bytes.count {
                // One load (the common case: 8 bytes in bounds), the bytes past `size` masked off.
                let word = UInt64(
                    littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: UInt64.self) })
                value = size == 8 ? word : word & (1 << (8 * UInt64(size)) - 1)
            } else {
                for i in 0..<size where position + i >= 0 && position + i < bytes.count {
                    value |= UInt64(bytes[position + i]) << (8 * UInt64(i))
                }
            }
            position += size
            return value
        }
    }

    /// Little-endian writing.
    struct Writer {
        var bytes: [UInt8] = []
        mutating func append(_ raw: [UInt8]) { bytes += raw }
        mutating func uint16(_ v: UInt16) { integer(UInt64(v), 2) }
        mutating func uint32(_ v: UInt32) { integer(UInt64(v), 4) }
        mutating func uint64(_ v: UInt64) { integer(v, 8) }
        private mutating func integer(_ v: UInt64, _ size: Int) {
            for i in 0..<size { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
        }
    }
}
