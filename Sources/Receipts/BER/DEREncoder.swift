/// A small DER writer: tag-length-value with minimal lengths. Each function returns the
/// complete encoding of one element, so building a structure costs time linear in its size.
public enum DEREncoder {
    /// The identifier and length octets for an element of `tag` with `length` content octets.
    public static func header(_ tag: BERTag, length: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(8)
        let first = (tag.tagClass.rawValue << 6) | (tag.isConstructed ? 0x20 : 0)
        if tag.number < 31 {
            out.append(first | UInt8(tag.number))
        } else {
            out.append(first | 0x1f)
            var groups: [UInt8] = []
            var number = tag.number
            repeat {
                groups.append(UInt8(number & 0x7f))
                number >>= 7
            } while number > 0
            for (index, group) in groups.reversed().enumerated() {
                out.append(index == groups.count - 1 ? group : group | 0x80)
            }
        }
        if length < 0x80 {
            out.append(UInt8(length))
        } else {
            var bytes: [UInt8] = []
            var remaining = length
            while remaining > 0 {
                bytes.append(UInt8(remaining & 0xff))
                remaining >>= 8
            }
            out.append(0x80 | UInt8(bytes.count))
            out.append(contentsOf: bytes.reversed())
        }
        return out
    }

    /// One element of `tag` holding `content`.
    public static func element(_ tag: BERTag, _ content: [UInt8]) -> [UInt8] {
        var out = header(tag, length: content.count)
        out.append(contentsOf: content)
        return out
    }

    /// A constructed element holding the concatenation of `children`.
    public static func constructed(_ tag: BERTag, _ children: [[UInt8]]) -> [UInt8] {
        let length = children.reduce(0) { $0 + $1.count }
        var out = header(tag, length: length)
        out.reserveCapacity(out.count + length)
        for child in children { out.append(contentsOf: child) }
        return out
    }

    /// A SEQUENCE of `children`.
    public static func sequence(_ children: [[UInt8]]) -> [UInt8] { constructed(.sequence, children) }

    /// A SET of `children`, in the order given.
    public static func set(_ children: [[UInt8]]) -> [UInt8] { constructed(.set, children) }

    /// An INTEGER in minimal two's complement.
    public static func integer(_ value: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        var remaining = value
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        } while remaining != 0 && remaining != -1
        // Keep the sign bit right: add a 00 or FF octet when the top bit disagrees.
        if let top = bytes.last {
            if value >= 0 && top & 0x80 != 0 { bytes.append(0) }
            if value < 0 && top & 0x80 == 0 { bytes.append(0xff) }
        }
        return element(.integer, bytes.reversed())
    }

    /// An OCTET STRING.
    public static func octetString(_ bytes: [UInt8]) -> [UInt8] { element(.octetString, bytes) }

    /// A UTF8String.
    public static func utf8String(_ text: String) -> [UInt8] { element(.utf8String, Array(text.utf8)) }

    /// An IA5String (the caller passes ASCII).
    public static func ia5String(_ text: String) -> [UInt8] { element(.ia5String, Array(text.utf8)) }
}
