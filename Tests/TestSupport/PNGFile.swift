import Foundation

/// PNG files made byte by byte for the retention image tests: black pixels, image data in
/// zlib's stored (uncompressed) blocks, each chunk with its CRC-32 computed bit by bit here
/// (the store's table-driven CRC is the code under test; both are checked against the
/// standard's check values in `PNGImageTests`).
public enum PNGFile {
    /// A PNG of `width`×`height` black pixels, 8 bits per sample.
    /// - Parameters:
    ///   - colorType: 0 grey (the default), 2 truecolour, 3 indexed, 4 grey and alpha, 6 truecolour and alpha.
    ///   - extraChunks: chunks written after `IHDR` (and `PLTE`), before the image data.
    public static func make(
        width: Int, height: Int, colorType: UInt8 = 0, extraChunks: [(String, [UInt8])] = []
    ) -> Data {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)] ?? 1
        var rows: [UInt8] = []
        rows.reserveCapacity(height * (1 + width * channels))
        for _ in 0..<height { rows += [0] + [UInt8](repeating: 0, count: width * channels) }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", be32(width) + be32(height) + [8, colorType, 0, 0, 0])
        if colorType == 3 { file += chunk("PLTE", [0, 0, 0]) }
        for (type, data) in extraChunks { file += chunk(type, data) }
        file += chunk("IDAT", stored(rows))
        file += chunk("IEND", [])
        return Data(file)
    }

    /// One chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(crc32(typed)))
    }

    /// CRC-32 (ISO 3309), bit by bit.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    private static func be32(_ n: Int) -> [UInt8] {
        [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }

    /// A zlib stream of stored blocks (RFC 1950/1951) with its Adler-32.
    private static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }
}
