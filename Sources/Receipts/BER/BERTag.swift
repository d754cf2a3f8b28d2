/// The identifier octets of one BER element: class, primitive or constructed, and number.
public struct BERTag: Hashable, Sendable, CustomStringConvertible {
    /// The four ASN.1 tag classes.
    public enum TagClass: UInt8, Hashable, Sendable {
        /// Types ASN.1 itself defines (INTEGER, SET, UTF8String…).
        case universal = 0
        /// Types of one application.
        case application = 1
        /// Tags whose meaning depends on where they appear.
        case contextSpecific = 2
        /// Types private to one organisation.
        case `private` = 3
    }

    /// The tag's class.
    public let tagClass: TagClass
    /// Whether the element holds other elements rather than bytes.
    public let isConstructed: Bool
    /// The tag number; numbers of 31 and above use the high-tag-number form.
    public let number: UInt32

    /// Creates a tag.
    public init(_ tagClass: TagClass, number: UInt32, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    /// A universal, primitive tag.
    public static func universal(_ number: UInt32) -> BERTag { BERTag(.universal, number: number, constructed: false) }

    /// INTEGER.
    public static let integer = BERTag.universal(2)
    /// OCTET STRING, primitive form.
    public static let octetString = BERTag.universal(4)
    /// NULL.
    public static let null = BERTag.universal(5)
    /// OBJECT IDENTIFIER.
    public static let objectIdentifier = BERTag.universal(6)
    /// UTF8String.
    public static let utf8String = BERTag.universal(12)
    /// IA5String.
    public static let ia5String = BERTag.universal(22)
    /// SEQUENCE (always constructed).
    public static let sequence = BERTag(.universal, number: 16, constructed: true)
    /// SET (always constructed).
    public static let set = BERTag(.universal, number: 17, constructed: true)

    /// A context-specific constructed tag such as `[0]`.
    public static func context(_ number: UInt32, constructed: Bool = true) -> BERTag {
        BERTag(.contextSpecific, number: number, constructed: constructed)
    }

    /// Whether this tag and `other` differ only in the primitive/constructed bit.
    public func sameType(as other: BERTag) -> Bool { tagClass == other.tagClass && number == other.number }

    public var description: String {
        let form = isConstructed ? "constructed" : "primitive"
        switch tagClass {
        case .universal: return "universal \(number) (\(form))"
        case .application: return "[APPLICATION \(number)] (\(form))"
        case .contextSpecific: return "[\(number)] (\(form))"
        case .private: return "[PRIVATE \(number)] (\(form))"
        }
    }
}
