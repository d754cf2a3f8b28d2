import Foundation

/// What the store checks of an uploaded image without decoding its pixels: a whole PNG file
/// (signature, chunks with good CRCs, `IHDR` first, image data, `IEND` last) and its header's
/// size and colour type. Transparency is refused as Apple refuses it: a colour type with an
/// alpha channel, or a `tRNS` chunk (see Docs/decisions/0111-retention-image-rules.md).
public struct PNGImage: Hashable, Sendable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The PNG colour type (0 grey, 2 truecolour, 3 indexed, 4 grey and alpha, 6 truecolour and alpha).
    public let colorType: UInt8

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The bit depths each colour type allows (PNG specification, table 11.1).
    private static let depths: [UInt8: Set<UInt8>] = [
        0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
    ]

    /// Reads `bytes` as a PNG file.
    /// - Throws: `RetentionMessagingError.invalidImage` saying what is wrong.
    public init(_ bytes: Data) throws(RetentionMessagingError) {
        let data = [UInt8](bytes)
        guard data.count >= Self.signature.count, Array(data.prefix(8)) == Self.signature else {
            throw .invalidImage("it is not a PNG file (Apple accepts PNG only)")
        }
        var offset = 8
        var header: (width: Int, height: Int, depth: UInt8, color: UInt8)?
        var sawData = false
        var sawPalette = false
        var ended = false
        while offset < data.count {
            guard !ended else { throw .invalidImage("there are bytes after the IEND chunk") }
            guard data.count - offset >= 12 else { throw .invalidImage("the file ends inside a chunk") }
            let length = Int(Self.uint32(data, offset))
            let typeBytes = data[(offset + 4)..<(offset + 8)]
            // A damaged type is not written into the message as it is.
            let type =
                typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
                ? String(decoding: typeBytes, as: UTF8.self)
                : "0x" + typeBytes.map { String($0, radix: 16, uppercase: true) }.joined()
            guard length <= data.count - offset - 12 else {
                throw .invalidImage("the \(type) chunk is longer than the file")
            }
            let body = (offset + 8)..<(offset + 8 + length)
            guard Self.crc32(data[(offset + 4)..<body.upperBound]) == Self.uint32(data, body.upperBound) else {
                throw .invalidImage("the \(type) chunk's CRC does not match its bytes (the file is damaged)")
            }
            if header == nil {
                guard type == "IHDR", length == 13 else { throw .invalidImage("the first chunk is not IHDR") }
                let width = Int(Self.uint32(data, body.lowerBound))
                let height = Int(Self.uint32(data, body.lowerBound + 4))
                let depth = data[body.lowerBound + 8]
                let color = data[body.lowerBound + 9]
                guard width > 0, height > 0 else { throw .invalidImage("its width or height is 0") }
                guard let allowed = Self.depths[color], allowed.contains(depth) else {
                    throw .invalidImage("colour type \(color) with bit depth \(depth) is not a PNG format")
                }
                header = (width, height, depth, color)
            } else {
                switch type {
                case "IHDR": throw .invalidImage("it has a second IHDR chunk")
                case "PLTE": sawPalette = true
                case "IDAT": sawData = true
                case "tRNS": throw .invalidImage("it has transparency (a tRNS chunk); Apple accepts opaque images only")
                case "IEND": ended = true
                default: break
                }
            }
            offset = body.upperBound + 4
        }
        guard let header else { throw .invalidImage("it has no IHDR chunk") }
        guard ended else { throw .invalidImage("it has no IEND chunk (the file is cut short)") }
        guard sawData else { throw .invalidImage("it has no image data (IDAT)") }
        guard header.color != 3 || sawPalette else { throw .invalidImage("an indexed image without a palette") }
        guard header.color != 4 && header.color != 6 else {
            throw .invalidImage("it has an alpha channel; Apple accepts images without transparency only")
        }
        width = header.width
        height = header.height
        colorType = header.color
    }

    private static func uint32(_ data: [UInt8], _ at: Int) -> UInt32 {
        UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
    }

    /// The CRC-32 of PNG chunks (ISO 3309, reflected polynomial 0xEDB88320): a checksum of the
    /// file format, not a cryptographic hash.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
