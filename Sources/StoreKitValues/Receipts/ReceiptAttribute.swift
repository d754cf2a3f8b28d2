/// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`,
/// kept as is when the receipt reader does not know its type.
public struct ReceiptAttribute: Codable, Hashable, Sendable {
    /// The attribute type number.
    public var type: Int64
    /// The attribute's version field (Apple varies it; it carries no meaning for readers).
    public var version: Int64
    /// The raw value octets (usually DER of an ASN.1 value).
    public var value: [UInt8]

    /// Creates an attribute.
    public init(type: Int64, version: Int64 = 1, value: [UInt8]) {
        self.type = type
        self.version = version
        self.value = value
    }
}
