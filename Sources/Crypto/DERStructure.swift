/// Whether bytes are well-formed DER, element by element, without OpenSSL: tags in one byte,
/// definite lengths in their shortest form, every constructed element exactly filled by its
/// children, nothing after the last. A check of structure only: what a field says is not read.
enum DERStructure {
    /// Whether `der` is shaped as an X.509 certificate: one SEQUENCE of a SEQUENCE (the signed
    /// part), a SEQUENCE (the signature algorithm) and a BIT STRING (the signature), every
    /// element within them well formed.
    static func isCertificate(_ der: [UInt8]) -> Bool {
        der.withUnsafeBufferPointer { bytes in
            var reader = Reader(bytes: bytes, start: 0, end: bytes.count)
            guard let outer = reader.next(), outer.tag == 0x30, reader.atEnd else { return false }
            var inside = Reader(bytes: bytes, start: outer.contents.lowerBound, end: outer.contents.upperBound)
            let expected: [UInt8] = [0x30, 0x30, 0x03]
            for tag in expected {
                guard let element = inside.next(), element.tag == tag else { return false }
            }
            return inside.atEnd && wellFormed(bytes, outer.contents, depth: 0)
        }
    }

    /// Whether the elements in `range` follow one another exactly, constructed ones (tag bit
    /// 0x20) well formed inside, no deeper than an X.509 certificate nests.
    private static func wellFormed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, depth: Int) -> Bool {
        guard depth < 16 else { return false }
        var reader = Reader(bytes: bytes, start: range.lowerBound, end: range.upperBound)
        while !reader.atEnd {
            guard let element = reader.next() else { return false }
            if element.tag & 0x20 != 0, !wellFormed(bytes, element.contents, depth: depth + 1) { return false }
        }
        return true
    }

    /// One element: its tag and where its contents are.
    struct Element {
        let tag: UInt8
        let contents: Range<Int>
    }

    /// Reads the elements between two offsets, one after another.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var start: Int
        let end: Int

        var atEnd: Bool { start == end }

        /// The next element; nil when the bytes are not one (a multi-byte tag, an indefinite
        /// or over-long length, contents past the end).
        mutating func next() -> Element? {
            guard end - start >= 2 else { return nil }
            let tag = bytes[start]
            guard tag & 0x1F != 0x1F else { return nil }
            var cursor = start + 1
            let first = Int(bytes[cursor])
            cursor += 1
            var length = first
            if first & 0x80 != 0 {
                let count = first & 0x7F
                guard (1...4).contains(count), end - cursor >= count, bytes[cursor] != 0 else { return nil }
                length = 0
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[cursor])
                    cursor += 1
                }
                guard length >= 0x80 else { return nil }
            }
            guard length <= end - cursor else { return nil }
            start = cursor + length
            return Element(tag: tag, contents: cursor..<(cursor + length))
        }
    }
}
