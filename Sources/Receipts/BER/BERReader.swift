import StoreKitValues

/// A bounds-checked BER reader: definite and indefinite lengths, constructed strings,
/// high tag numbers. It never traps: every failure is a `ReceiptError.malformed` with
/// the offset of the offending octet.
public struct BERReader: Sendable {
    /// The deepest nesting accepted; deeper input is rejected instead of recursing further.
    public let maximumDepth: Int

    /// Creates a reader.
    /// - Parameter maximumDepth: how deeply elements may nest (receipts need about 12).
    public init(maximumDepth: Int = 48) {
        self.maximumDepth = maximumDepth
    }

    /// Reads exactly one element that spans all of `bytes`.
    /// - Throws: `ReceiptError.malformed` when the bytes are not one well-formed element.
    public func readSingle(_ bytes: ArraySlice<UInt8>) throws(ReceiptError) -> BERNode {
        var position = bytes.startIndex
        let node = try readElement(bytes, at: &position, depth: 0)
        guard position == bytes.endIndex else {
            throw .malformed(offset: position, reason: "\(bytes.endIndex - position) trailing bytes after the element")
        }
        return node
    }

    /// Reads exactly one element that spans all of `bytes`.
    /// - Throws: `ReceiptError.malformed` when the bytes are not one well-formed element.
    public func readSingle(_ bytes: [UInt8]) throws(ReceiptError) -> BERNode {
        try readSingle(bytes[...])
    }

    /// Reads the first element of `bytes`, ignoring anything after it.
    /// - Throws: `ReceiptError.malformed` when the bytes do not start with a well-formed element.
    public func readFirst(_ bytes: ArraySlice<UInt8>) throws(ReceiptError) -> BERNode {
        var position = bytes.startIndex
        return try readElement(bytes, at: &position, depth: 0)
    }

    /// Reads one element's identifier and length octets at `position`, leaving `position` at
    /// its first content octet. The length is nil for the indefinite form.
    /// - Throws: `ReceiptError.malformed` when the header is cut short or invalid.
    public func readHeader(
        _ bytes: ArraySlice<UInt8>, at position: inout Int
    ) throws(ReceiptError) -> (tag: BERTag, length: Int?) {
        let tag = try readTag(bytes, at: &position)
        return (tag, try readLength(bytes, at: &position))
    }

    // MARK: - Elements

    private func readElement(
        _ bytes: ArraySlice<UInt8>, at position: inout Int, depth: Int
    ) throws(ReceiptError) -> BERNode {
        let start = position
        guard depth <= maximumDepth else {
            throw .malformed(offset: start, reason: "elements nest deeper than \(maximumDepth) levels")
        }
        let tag = try readTag(bytes, at: &position)
        let length = try readLength(bytes, at: &position)
        let contentStart = position
        guard let length else {
            // Indefinite length: children until the end-of-contents octets 00 00.
            guard tag.isConstructed else {
                throw .malformed(offset: start, reason: "primitive element \(tag) uses the indefinite length form")
            }
            var children: [BERNode] = []
            while true {
                guard position < bytes.endIndex else {
                    throw .malformed(
                        offset: position, reason: "input ends before the end-of-contents of the element at \(start)")
                }
                if bytes[position] == 0 {
                    guard position + 1 < bytes.endIndex, bytes[position + 1] == 0 else {
                        throw .malformed(offset: position, reason: "malformed end-of-contents octets")
                    }
                    let contentEnd = position
                    position += 2
                    return BERNode(
                        tag: tag, offset: start, end: position, indefinite: true,
                        content: bytes[contentStart..<contentEnd], children: children)
                }
                children.append(try readElement(bytes, at: &position, depth: depth + 1))
            }
        }
        let (contentEnd, overflow) = contentStart.addingReportingOverflow(length)
        guard !overflow, contentEnd <= bytes.endIndex else {
            throw .malformed(
                offset: start,
                reason: "length \(length) runs past the end of the input (\(bytes.endIndex - contentStart) bytes left)")
        }
        let content = bytes[contentStart..<contentEnd]
        var children: [BERNode] = []
        if tag.isConstructed {
            var inner = contentStart
            while inner < contentEnd {
                children.append(try readElement(content, at: &inner, depth: depth + 1))
            }
        }
        position = contentEnd
        return BERNode(
            tag: tag, offset: start, end: contentEnd, indefinite: false, content: content, children: children)
    }

    private func readTag(_ bytes: ArraySlice<UInt8>, at position: inout Int) throws(ReceiptError) -> BERTag {
        guard position < bytes.endIndex else {
            throw .malformed(offset: position, reason: "input ends where a tag was expected")
        }
        let first = bytes[position]
        position += 1
        let tagClass = BERTag.TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        var number = UInt32(first & 0x1f)
        if number == 0x1f {
            // High-tag-number form: base 128, most significant group first.
            number = 0
            var groups = 0
            while true {
                guard position < bytes.endIndex else {
                    throw .malformed(offset: position, reason: "input ends inside a high tag number")
                }
                let byte = bytes[position]
                if groups == 0 && byte == 0x80 {
                    throw .malformed(offset: position, reason: "high tag number has a leading zero group")
                }
                groups += 1
                guard groups <= 4 else {
                    throw .malformed(offset: position, reason: "tag number longer than 4 groups")
                }
                number = (number << 7) | UInt32(byte & 0x7f)
                position += 1
                if byte & 0x80 == 0 { break }
            }
        }
        return BERTag(tagClass, number: number, constructed: constructed)
    }

    /// Returns the length, or nil for the indefinite form.
    private func readLength(_ bytes: ArraySlice<UInt8>, at position: inout Int) throws(ReceiptError) -> Int? {
        guard position < bytes.endIndex else {
            throw .malformed(offset: position, reason: "input ends where a length was expected")
        }
        let first = bytes[position]
        position += 1
        if first < 0x80 { return Int(first) }
        if first == 0x80 { return nil }
        let count = Int(first & 0x7f)
        guard count != 0x7f else {
            throw .malformed(offset: position - 1, reason: "reserved length octet 0xFF")
        }
        guard count <= 4 else {
            throw .malformed(offset: position - 1, reason: "length of \(count) octets is larger than any input")
        }
        guard count <= bytes.endIndex - position else {
            throw .malformed(offset: position, reason: "input ends inside a length")
        }
        var length = 0
        for _ in 0..<count {
            length = (length << 8) | Int(bytes[position])
            position += 1
        }
        return length
    }
}
