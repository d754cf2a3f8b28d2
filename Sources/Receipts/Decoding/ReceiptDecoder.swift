import Foundation
import StoreKitValues

/// Reads an app receipt: the PKCS#7 SignedData container and the attribute SET inside it.
///
/// Decoding does not check the signature; `ReceiptValidator` does that.
public struct ReceiptDecoder: Sendable {
    /// The OID of PKCS#7 signedData.
    public static let signedDataOID = "1.2.840.113549.1.7.2"
    /// The OID of PKCS#7 data.
    public static let dataOID = "1.2.840.113549.1.7.1"

    private let reader: BERReader

    /// Creates a decoder.
    public init(reader: BERReader = BERReader()) {
        self.reader = reader
    }

    /// Decodes a receipt file's bytes: DER/BER, or base64 of it (whitespace allowed).
    /// - Throws: `ReceiptError` naming the offset and what is wrong.
    public func decode(_ bytes: [UInt8]) throws(ReceiptError) -> AppReceipt {
        try decodePayload(try payload(ofContainer: try Self.containerBytes(bytes)))
    }

    /// Returns the DER bytes of a receipt file that holds either DER or base64 text.
    /// - Throws: `ReceiptError.notBase64` when the file is neither.
    public static func containerBytes(_ bytes: [UInt8]) throws(ReceiptError) -> [UInt8] {
        guard let first = bytes.first else { throw .notBase64(reason: "the file is empty") }
        if first == 0x30 { return bytes }
        let text = bytes.filter { !($0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09) }
        guard let data = Data(base64Encoded: Data(text)) else {
            throw .notBase64(
                reason: "first byte 0x\(String(first, radix: 16)) is not a SEQUENCE and the text is not base64")
        }
        guard data.first == 0x30 else {
            throw .notBase64(reason: "base64 decodes to bytes that do not start with a SEQUENCE")
        }
        return Array(data)
    }

    /// Returns the signed content (the attribute SET's encoding) of a PKCS#7 SignedData receipt.
    /// - Throws: `ReceiptError` when the container is not SignedData of data.
    public func payload(ofContainer der: [UInt8]) throws(ReceiptError) -> [UInt8] {
        let contentInfo = try reader.readFirst(der[...])
        guard contentInfo.tag == .sequence else {
            throw .notSignedData(
                offset: contentInfo.offset, reason: "ContentInfo is \(contentInfo.tag), not a SEQUENCE")
        }
        let type = try contentInfo.child(0, "ContentInfo.contentType").objectIdentifierValue("ContentInfo.contentType")
        guard type == Self.signedDataOID else {
            throw .notSignedData(offset: contentInfo.offset, reason: "content type \(type) is not signedData")
        }
        let explicit = try contentInfo.child(1, "ContentInfo.content")
        try explicit.expect(.context(0), "ContentInfo.content")
        let signedData = try explicit.child(0, "SignedData")
        try signedData.expect(.sequence, "SignedData")
        let encapsulated = try signedData.child(2, "SignedData.contentInfo")
        try encapsulated.expect(.sequence, "SignedData.contentInfo")
        let innerType = try encapsulated.child(0, "contentInfo.contentType").objectIdentifierValue(
            "contentInfo.contentType")
        guard innerType == Self.dataOID else {
            throw .notSignedData(offset: encapsulated.offset, reason: "signed content type \(innerType) is not data")
        }
        let wrapper = try encapsulated.child(1, "contentInfo.content")
        try wrapper.expect(.context(0), "contentInfo.content")
        return try wrapper.child(0, "contentInfo.content").octetStringValue("signed content")
    }

    /// Decodes the attribute SET of a receipt payload.
    /// - Throws: `ReceiptError` naming the attribute and offset that is wrong.
    public func decodePayload(_ payload: [UInt8]) throws(ReceiptError) -> AppReceipt {
        var receipt = AppReceipt(bundleID: "", appVersion: "", opaqueValue: [], sha1Hash: [])
        receipt.bundleIDData = []
        var seen: Set<Int64> = []
        try forEachAttribute(in: payload[...], "receipt payload") { (attribute: Attribute) throws(ReceiptError) in
            typealias T = ReceiptAttributeType
            switch attribute.type {
            case T.receiptType: receipt.rawReceiptType = try string(attribute)
            case T.appItemID: receipt.appItemID = try integer(attribute)
            case T.bundleID:
                receipt.bundleID = try string(attribute)
                receipt.bundleIDData = Array(attribute.value.bytes)
            case T.appVersion: receipt.appVersion = try string(attribute)
            case T.opaqueValue: receipt.opaqueValue = Array(attribute.value.bytes)
            case T.sha1Hash: receipt.sha1Hash = Array(attribute.value.bytes)
            case T.ageRating: receipt.ageRating = try string(attribute)
            case T.creationDate: receipt.creationDate = try date(attribute)
            case T.originalPurchaseDate: receipt.originalPurchaseDate = try date(attribute)
            case T.originalAppVersion: receipt.originalAppVersion = try string(attribute)
            case T.expirationDate: receipt.expirationDate = try date(attribute)
            case T.inAppPurchase: receipt.inApp.append(try inAppPurchase(attribute.value))
            default: receipt.unknownAttributes.append(attribute.raw)
            }
            seen.insert(attribute.type)
        }
        for required in [ReceiptAttributeType.bundleID, ReceiptAttributeType.appVersion] where !seen.contains(required)
        {
            throw .missingAttribute(type: required, name: ReceiptAttributeType.name(of: required))
        }
        return receipt
    }

    // MARK: - In-app purchases

    private func inAppPurchase(_ value: AttributeValue) throws(ReceiptError) -> InAppPurchaseReceipt {
        var purchase = InAppPurchaseReceipt(quantity: nil, productID: "", transactionID: "")
        var inner: ReceiptError?
        do throws(ReceiptError) {
            try forEachAttribute(in: value.bytes, "in-app purchase receipt") {
                (attribute: Attribute) throws(ReceiptError) in
                do throws(ReceiptError) {
                    try apply(attribute, to: &purchase)
                } catch {
                    inner = error
                    throw error
                }
            }
        } catch {
            // Errors about an attribute inside keep their own attribute; structural ones name 17.
            if let inner, error == inner { throw inner }
            throw Self.invalid(ReceiptAttributeType.inAppPurchase, value.offset, "\(error)")
        }
        return purchase
    }

    private func apply(_ attribute: Attribute, to purchase: inout InAppPurchaseReceipt) throws(ReceiptError) {
        typealias T = ReceiptAttributeType
        switch attribute.type {
        case T.quantity: purchase.quantity = try integer(attribute)
        case T.productID: purchase.productID = try string(attribute)
        case T.transactionID: purchase.transactionID = try string(attribute)
        case T.originalTransactionID: purchase.originalTransactionID = try string(attribute)
        case T.purchaseDate: purchase.purchaseDate = try date(attribute)
        case T.inAppOriginalPurchaseDate: purchase.originalPurchaseDate = try date(attribute)
        case T.productType: purchase.rawProductType = try integer(attribute)
        case T.expiresDate: purchase.expiresDate = try date(attribute)
        case T.webOrderLineItemID: purchase.webOrderLineItemID = try integer(attribute)
        case T.cancellationDate: purchase.cancellationDate = try date(attribute)
        case T.isInTrialPeriod: purchase.isInTrialPeriod = try integer(attribute) != 0
        case T.isInIntroOfferPeriod: purchase.isInIntroOfferPeriod = try integer(attribute) != 0
        case T.promotionalOfferIdentifier: purchase.promotionalOfferIdentifier = try string(attribute)
        default: purchase.unknownAttributes.append(attribute.raw)
        }
    }

    // MARK: - Attribute scanning

    /// Calls `body` with each attribute of the SET encoded in `encoding`. Well-formed DER
    /// attributes are read straight from their headers, without building nodes; anything else
    /// (indefinite lengths, constructed strings, extra fields, errors) goes through the full reader.
    private func forEachAttribute(
        in encoding: ArraySlice<UInt8>, _ what: String, _ body: (Attribute) throws(ReceiptError) -> Void
    ) throws(ReceiptError) {
        var position = encoding.startIndex
        let (tag, length) = try reader.readHeader(encoding, at: &position)
        guard tag == .set, let length, length == encoding.endIndex - position else {
            let set = try reader.readSingle(encoding)
            try set.expect(.set, what)
            for node in set.children { try body(try Self.attribute(node)) }
            return
        }
        let end = encoding.endIndex
        while position < end {
            if let attribute = fastAttribute(encoding, at: &position, end: end) {
                try body(attribute)
                continue
            }
            let node = try reader.readFirst(encoding[position..<end])
            try body(try Self.attribute(node))
            position = node.end
        }
    }

    private func fastAttribute(_ bytes: ArraySlice<UInt8>, at position: inout Int, end: Int) -> Attribute? {
        var cursor = position
        guard let (tag, length) = try? reader.readHeader(bytes, at: &cursor), tag == .sequence, let length,
            length <= end - cursor
        else { return nil }
        let sequenceEnd = cursor + length
        guard let typeBytes = primitive(bytes, at: &cursor, end: sequenceEnd, tag: .integer),
            let versionBytes = primitive(bytes, at: &cursor, end: sequenceEnd, tag: .integer),
            let value = primitive(bytes, at: &cursor, end: sequenceEnd, tag: .octetString),
            cursor == sequenceEnd,
            let type = Self.int64(typeBytes), let version = Self.int64(versionBytes)
        else { return nil }
        position = sequenceEnd
        return Attribute(type: type, version: version, value: AttributeValue(bytes: value, offset: value.startIndex))
    }

    private func primitive(
        _ bytes: ArraySlice<UInt8>, at position: inout Int, end: Int, tag expected: BERTag
    ) -> ArraySlice<UInt8>? {
        var cursor = position
        guard let (tag, length) = try? reader.readHeader(bytes, at: &cursor), tag == expected, let length,
            length <= end - cursor
        else { return nil }
        position = cursor + length
        return bytes[cursor..<position]
    }

    private static func int64(_ content: ArraySlice<UInt8>) -> Int64? {
        guard let first = content.first, content.count <= 8 else { return nil }
        var value: Int64 = first >= 0x80 ? -1 : 0
        for byte in content { value = (value << 8) | Int64(byte) }
        return value
    }

    // MARK: - Attributes

    private struct AttributeValue {
        let bytes: ArraySlice<UInt8>
        let offset: Int
    }

    private struct Attribute {
        let type: Int64
        let version: Int64
        let value: AttributeValue
        var raw: ReceiptAttribute { ReceiptAttribute(type: type, version: version, value: Array(value.bytes)) }
    }

    private static func attribute(_ node: BERNode) throws(ReceiptError) -> Attribute {
        try node.expect(.sequence, "receipt attribute")
        guard node.children.count >= 3 else {
            throw .malformed(
                offset: node.offset, reason: "receipt attribute has \(node.children.count) fields, needs 3")
        }
        let type = try node.children[0].integerValue("receipt attribute type")
        let version = try node.children[1].integerValue("receipt attribute version")
        let valueNode = node.children[2]
        let bytes: ArraySlice<UInt8>
        if valueNode.tag == .octetString {
            bytes = valueNode.content
        } else {
            bytes = try valueNode.octetStringValue("receipt attribute \(type) value")[...]
        }
        return Attribute(
            type: type, version: version, value: AttributeValue(bytes: bytes, offset: valueNode.contentOffset))
    }

    private static func invalid(_ type: Int64, _ offset: Int, _ reason: String) -> ReceiptError {
        .invalidAttribute(type: type, name: ReceiptAttributeType.name(of: type), offset: offset, reason: reason)
    }

    /// The attribute's value read as one DER element, its failure named after the attribute.
    private func inner(_ attribute: Attribute) throws(ReceiptError) -> BERNode {
        do {
            return try reader.readSingle(attribute.value.bytes)
        } catch {
            throw Self.invalid(attribute.type, attribute.value.offset, "value is not one DER element: \(error)")
        }
    }

    /// The attribute's inner element read by `read`, its failure named after the attribute.
    private func scalar<T>(_ attribute: Attribute, _ read: (BERNode) throws -> T) throws(ReceiptError) -> T {
        let node = try inner(attribute)
        do {
            return try read(node)
        } catch {
            throw Self.invalid(attribute.type, attribute.value.offset, "\(error)")
        }
    }

    private func string(_ attribute: Attribute) throws(ReceiptError) -> String {
        try scalar(attribute) { try $0.stringValue() }
    }

    private func integer(_ attribute: Attribute) throws(ReceiptError) -> Int64 {
        try scalar(attribute) { try $0.integerValue() }
    }

    private func date(_ attribute: Attribute) throws(ReceiptError) -> Date? {
        let node = try inner(attribute)
        let bytes: ArraySlice<UInt8>
        if node.tag == .ia5String || node.tag == .utf8String {
            bytes = node.content
        } else {
            // Constructed strings and other string types take the general path.
            bytes = Array(try string(attribute).utf8)[...]
        }
        do {
            return try ReceiptDate.parse(bytes: bytes, offset: attribute.value.offset)
        } catch {
            let text = String(decoding: bytes.prefix(40), as: UTF8.self)
            throw Self.invalid(attribute.type, attribute.value.offset, "\"\(text)\" is not an RFC 3339 date")
        }
    }
}
