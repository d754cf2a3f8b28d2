import StoreKitValues

/// One decoded BER element: its tag, where it sits in the input, and its content.
///
/// `content` is a slice of the input, so its indices are offsets into the original bytes.
/// For a constructed element `children` holds the decoded elements inside it.
public struct BERNode: Sendable, Hashable {
    /// The element's tag.
    public let tag: BERTag
    /// Offset of the element's first identifier octet in the input.
    public let offset: Int
    /// Offset just past the element (after the end-of-contents octets for indefinite lengths).
    public let end: Int
    /// Whether the element used the indefinite-length form.
    public let isIndefiniteLength: Bool
    /// The content octets (for indefinite lengths: everything before the end-of-contents octets).
    public let content: ArraySlice<UInt8>
    /// The elements inside a constructed element; empty for a primitive one.
    public let children: [BERNode]

    /// Creates a node; only the reader makes these.
    init(tag: BERTag, offset: Int, end: Int, indefinite: Bool, content: ArraySlice<UInt8>, children: [BERNode]) {
        self.tag = tag
        self.offset = offset
        self.end = end
        self.isIndefiniteLength = indefinite
        self.content = content
        self.children = children
    }

    /// Offset of the first content octet.
    public var contentOffset: Int { content.startIndex }

    /// Throws unless the element has the given tag.
    /// - Throws: `ReceiptError.malformed` naming `what` and the tag found.
    public func expect(_ expected: BERTag, _ what: String) throws(ReceiptError) {
        guard tag == expected else {
            throw .malformed(offset: offset, reason: "\(what): expected \(expected), found \(tag)")
        }
    }

    /// The child at `index`, or an error naming `what` when it is missing.
    /// - Throws: `ReceiptError.malformed` when there are fewer children.
    public func child(_ index: Int, _ what: String) throws(ReceiptError) -> BERNode {
        guard index >= 0, index < children.count else {
            throw .malformed(offset: offset, reason: "\(what): element \(index) missing (\(children.count) present)")
        }
        return children[index]
    }

    /// The bytes of an OCTET STRING, joining the segments of the constructed form.
    /// - Throws: `ReceiptError.malformed` if this is not an OCTET STRING.
    public func octetStringValue(_ what: String = "OCTET STRING") throws(ReceiptError) -> [UInt8] {
        guard tag.sameType(as: .octetString) else {
            throw .malformed(offset: offset, reason: "\(what): expected OCTET STRING, found \(tag)")
        }
        if !tag.isConstructed { return Array(content) }
        var out: [UInt8] = []
        for segment in children {
            out.append(contentsOf: try segment.octetStringValue(what))
        }
        return out
    }

    /// The value of an INTEGER that fits in 64 bits.
    /// - Throws: `ReceiptError.malformed` if this is not an INTEGER or it is too large.
    public func integerValue(_ what: String = "INTEGER") throws(ReceiptError) -> Int64 {
        guard tag == .integer else {
            throw .malformed(offset: offset, reason: "\(what): expected INTEGER, found \(tag)")
        }
        guard let first = content.first else {
            throw .malformed(offset: offset, reason: "\(what): INTEGER has no content octets")
        }
        guard content.count <= 8 else {
            throw .malformed(offset: offset, reason: "\(what): INTEGER of \(content.count) bytes does not fit 64 bits")
        }
        var value: Int64 = first >= 0x80 ? -1 : 0
        for byte in content {
            value = (value << 8) | Int64(byte)
        }
        return value
    }

    /// The text of a UTF8String, IA5String, PrintableString or VisibleString.
    /// - Throws: `ReceiptError.malformed` for another type or invalid UTF-8.
    public func stringValue(_ what: String = "string") throws(ReceiptError) -> String {
        // UTF8String, PrintableString, IA5String, VisibleString.
        let isText = tag.number == 12 || tag.number == 19 || tag.number == 22 || tag.number == 26
        guard tag.tagClass == .universal, isText else {
            throw .malformed(offset: offset, reason: "\(what): expected a string, found \(tag)")
        }
        let bytes = tag.isConstructed ? try joinedSegments(what) : Array(content)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .malformed(offset: offset, reason: "\(what): string is not valid UTF-8")
        }
        return text
    }

    /// The dotted form of an OBJECT IDENTIFIER.
    /// - Throws: `ReceiptError.malformed` if this is not a well-formed OID.
    public func objectIdentifierValue(_ what: String = "OBJECT IDENTIFIER") throws(ReceiptError) -> String {
        guard tag == .objectIdentifier, !content.isEmpty else {
            throw .malformed(offset: offset, reason: "\(what): expected OBJECT IDENTIFIER, found \(tag)")
        }
        var arcs: [UInt64] = []
        var current: UInt64 = 0
        var pending = false
        for byte in content {
            guard current <= (UInt64.max >> 7) else {
                throw .malformed(offset: offset, reason: "\(what): OID arc too large")
            }
            current = (current << 7) | UInt64(byte & 0x7f)
            pending = true
            if byte & 0x80 == 0 {
                arcs.append(current)
                current = 0
                pending = false
            }
        }
        guard !pending, let first = arcs.first else {
            throw .malformed(offset: offset, reason: "\(what): OID ends inside an arc")
        }
        let head: [UInt64] = first < 80 ? [first / 40, first % 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }

    private func joinedSegments(_ what: String) throws(ReceiptError) -> [UInt8] {
        var out: [UInt8] = []
        for segment in children {
            guard segment.tag.sameType(as: tag) else {
                throw .malformed(offset: segment.offset, reason: "\(what): segment of another type \(segment.tag)")
            }
            out.append(
                contentsOf: segment.tag.isConstructed ? try segment.joinedSegments(what) : Array(segment.content))
        }
        return out
    }
}
