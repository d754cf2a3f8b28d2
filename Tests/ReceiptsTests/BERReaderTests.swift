import Foundation
import StoreKitValues
import Testing

@testable import Receipts

@Suite struct BERReaderTests {
    let reader = BERReader()

    @Test func readsIndefiniteLengthWithNestedConstructedOctetString() throws {
        // SEQUENCE(indef) { OCTET STRING(constructed, indef) { 04 02 'a' 'b', 04 01 'c' }, INTEGER 5 }
        let bytes: [UInt8] = [
            0x30, 0x80, 0x24, 0x80, 0x04, 0x02, 0x61, 0x62, 0x04, 0x01, 0x63, 0x00, 0x00,
            0x02, 0x01, 0x05, 0x00, 0x00,
        ]
        let node = try reader.readSingle(bytes)
        #expect(node.isIndefiniteLength)
        #expect(node.children.count == 2)
        #expect(try node.children[0].octetStringValue() == Array("abc".utf8))
        #expect(try node.children[1].integerValue() == 5)
        #expect(node.end == bytes.count)
    }

    @Test func readsHighTagNumbers() throws {
        // [APPLICATION 1701] primitive, content 0x2A; 1701 = 0x0D 0x25 in base 128.
        let bytes: [UInt8] = [0x5f, 0x8d, 0x25, 0x01, 0x2a]
        let node = try reader.readSingle(bytes)
        #expect(node.tag == BERTag(.application, number: 1701, constructed: false))
        #expect(Array(node.content) == [0x2a])
        #expect(DEREncoder.element(node.tag, [0x2a]) == bytes)
    }

    @Test func readsLongFormLengths() throws {
        let content = [UInt8](repeating: 7, count: 300)
        let bytes = DEREncoder.octetString(content)
        #expect(Array(bytes.prefix(4)) == [0x04, 0x82, 0x01, 0x2c])
        #expect(try reader.readSingle(bytes).octetStringValue() == content)
    }

    @Test(
        arguments: [
            ([0x30, 0x05, 0x02, 0x01], 0, "runs past"),  // length beyond input
            ([0x30, 0x80, 0x02, 0x01, 0x01], 5, "end-of-contents"),  // indefinite, never closed
            ([0x04, 0x80, 0x00, 0x00], 0, "indefinite"),  // primitive with indefinite length
            ([0x02, 0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1, "octets"),  // absurd length of length
            ([0x1f, 0x80, 0x01, 0x00], 1, "leading zero"),  // high tag with leading zero group
            ([0x1f, 0x81], 2, "inside a high tag"),  // truncated high tag
            ([0x30, 0x82, 0x01], 2, "inside a length"),  // truncated length
            ([0x02, 0xff], 1, "reserved"),  // reserved length octet
            ([0x02, 0x01, 0x01, 0x00], 3, "trailing"),  // trailing bytes
        ] as [([UInt8], Int, String)])
    func rejectsHostileInputWithOffset(bytes: [UInt8], offset: Int, words: String) {
        #expect {
            try reader.readSingle(bytes)
        } throws: { error in
            guard case .malformed(let at, let reason) = error as? ReceiptError else { return false }
            return at == offset && reason.contains(words)
        }
    }

    @Test func limitsNestingDepth() {
        // 200 nested indefinite SEQUENCEs: rejected, not a stack overflow.
        var bytes = [UInt8]()
        for _ in 0..<200 { bytes += [0x30, 0x80] }
        for _ in 0..<200 { bytes += [0x00, 0x00] }
        #expect(throws: ReceiptError.self) { try BERReader(maximumDepth: 48).readSingle(bytes) }
    }

    @Test func childCannotOverrunItsParent() {
        // SEQUENCE of length 3 holding an INTEGER that claims 5 bytes, followed by more input.
        let bytes: [UInt8] = [0x30, 0x03, 0x02, 0x05, 0x01, 0x02, 0x03, 0x04, 0x05]
        #expect(throws: ReceiptError.self) { try reader.readFirst(bytes[...]) }
    }

    @Test func integerRoundTripsThroughEncoder() throws {
        for value: Int64 in [0, 1, 127, 128, 255, 256, -1, -128, -129, 340_000_558_053_130, .max, .min] {
            #expect(try reader.readSingle(DEREncoder.integer(value)).integerValue() == value)
        }
    }

    @Test func objectIdentifiers() throws {
        let bytes: [UInt8] = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]
        #expect(try reader.readSingle(bytes).objectIdentifierValue() == "1.2.840.113549.1.7.2")
    }
}

@Suite struct ReceiptDateTests {
    @Test(arguments: [
        ("2024-02-23T17:27:16Z", 1_708_709_236.0),
        ("2024-02-23T18:27:16+0100", 1_708_709_236.0),
        ("2024-02-23T16:27:16-01:00", 1_708_709_236.0),
        ("2024-02-23T17:27:16.250Z", 1_708_709_236.25),
        ("4001-01-01T00:00:00Z", 64_092_211_200.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func parsesEveryForm(text: String, seconds: Double) throws {
        #expect(try ReceiptDate.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test func emptyMeansAbsent() throws {
        #expect(try ReceiptDate.parse("") == nil)
    }

    @Test(arguments: [
        "2024-02-30T00:00:00Z", "2024-02-23", "2024-02-23T17:27:16", "yesterday", "2024-13-01T00:00:00Z",
        "2024-02-23T17:27:16Zjunk", "2024-02-23T17:27:16.",
    ])
    func rejectsNonDates(text: String) {
        #expect(throws: ReceiptError.self) { try ReceiptDate.parse(text, offset: 9) }
    }

    @Test func formatsAsAppleDoes() {
        #expect(ReceiptDate.format(Date(timeIntervalSince1970: 1_708_709_236)) == "2024-02-23T17:27:16Z")
        #expect(ReceiptDate.format(Date(timeIntervalSince1970: 64_092_211_200)) == "4001-01-01T00:00:00Z")
    }
}

@Suite struct ReceiptDecoderEdgeTests {
    private func attribute(_ type: Int64, _ value: [UInt8], version: Int64 = 1) -> [UInt8] {
        DEREncoder.sequence([DEREncoder.integer(type), DEREncoder.integer(version), DEREncoder.octetString(value)])
    }

    @Test func datesInEveryFormAndEmptyMeansAbsent() throws {
        // Constructed IA5String date, a +0100 offset, fractional seconds and an empty cancellation date.
        let constructedDate = DEREncoder.constructed(
            BERTag(.universal, number: 22, constructed: true),
            [DEREncoder.ia5String("2024-02-23T18:27"), DEREncoder.ia5String(":16+0100")])
        let inApp = DEREncoder.set([
            attribute(1702, DEREncoder.utf8String("p")), attribute(1703, DEREncoder.utf8String("1")),
            attribute(1704, constructedDate), attribute(1706, DEREncoder.ia5String("2024-02-23T17:27:16.5Z")),
            attribute(1712, DEREncoder.ia5String("")), attribute(1799, [0xde, 0xad], version: 7),
        ])
        let payload = DEREncoder.set([
            attribute(19, DEREncoder.utf8String("1.0")), attribute(17, inApp),
            attribute(3, DEREncoder.utf8String("2")), attribute(2, DEREncoder.utf8String("b")),
        ])
        let receipt = try ReceiptDecoder().decodePayload(payload)
        let purchase = try #require(receipt.inApp.first)
        #expect(purchase.purchaseDate == Date(timeIntervalSince1970: 1_708_709_236))
        #expect(purchase.originalPurchaseDate == Date(timeIntervalSince1970: 1_708_709_236.5))
        #expect(purchase.cancellationDate == nil)
        #expect(purchase.unknownAttributes == [ReceiptAttribute(type: 1799, version: 7, value: [0xde, 0xad])])
        #expect(receipt.bundleID == "b")
        #expect(receipt.originalAppVersion == "1.0")
    }

    @Test func badValuesNameTheAttribute() throws {
        let payload = DEREncoder.set([
            attribute(2, DEREncoder.utf8String("b")), attribute(3, DEREncoder.utf8String("2")),
            attribute(12, DEREncoder.ia5String("last tuesday")),
        ])
        #expect(throws: ReceiptError.self) { try ReceiptDecoder().decodePayload(payload) }
        do {
            _ = try ReceiptDecoder().decodePayload(payload)
        } catch {
            guard case .invalidAttribute(let type, let name, _, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(type == 12)
            #expect(name == "creation date")
            #expect(reason.contains("last tuesday"))
        }
        let missing = DEREncoder.set([attribute(3, DEREncoder.utf8String("2"))])
        #expect(throws: ReceiptError.missingAttribute(type: 2, name: "bundle ID")) {
            try ReceiptDecoder().decodePayload(missing)
        }
    }
}
