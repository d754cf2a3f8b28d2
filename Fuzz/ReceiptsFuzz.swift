import Foundation
import StoreKitValues

// libFuzzer target for the BER reader, the receipt decoder and JWS parsing (`make fuzz`).
// Built with `swiftc -sanitize=fuzzer,address` together with the Receipts sources that do not
// need OpenSSL (BER, model, decoder, encoder), so any trap, overflow or out-of-bounds access
// on hostile input is a crash the fuzzer reports.

@_cdecl("LLVMFuzzerTestOneInput")
public func receiptsFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    let reader = BERReader(maximumDepth: 48)
    let decoder = ReceiptDecoder(reader: reader)

    // The raw reader, and every accessor on every node it returns.
    if let node = try? reader.readFirst(bytes[...]) { exercise(node) }

    // A whole receipt file (DER or base64), then the payload alone as if it came out of a container.
    if let receipt = try? decoder.decode(bytes) { roundTrip(receipt, decoder) }
    if let receipt = try? decoder.decodePayload(bytes) { roundTrip(receipt, decoder) }
    if let text = String(validating: bytes, as: UTF8.self) {
        _ = try? ReceiptDate.parse(text)
        jws(text)
    }
    return 0
}

/// The parsing half of JWS verification (the signature half is OpenSSL's): compact form,
/// base64url, header and payload JSON with App Store date handling.
private func jws(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let decoded = parts.map { Base64URL.decode($0) }
    let decoder = JWSCoding.decoder()
    for case let bytes? in decoded {
        let data = Data(bytes)
        _ = try? JSONDecoder().decode(JWSHeader.self, from: data)
        if let payload = try? decoder.decode(JWSTransactionDecodedPayload.self, from: data) {
            _ = try? JWSCoding.encode(payload)
            _ = payload.signedDate.map(ReceiptDate.format)
        }
        if let info = try? decoder.decode(JWSRenewalInfoDecodedPayload.self, from: data) {
            _ = try? JWSCoding.encode(info)
        }
    }
    // Also the raw text as JSON, which base64 seldom reaches.
    _ = try? decoder.decode(JWSTransactionDecodedPayload.self, from: Data(text.utf8))
}

private func exercise(_ node: BERNode, depth: Int = 0) {
    _ = try? node.integerValue()
    _ = try? node.octetStringValue()
    _ = try? node.stringValue()
    _ = try? node.objectIdentifierValue()
    guard depth < 64 else { return }
    for child in node.children { exercise(child, depth: depth + 1) }
}

private func roundTrip(_ receipt: AppReceipt, _ decoder: ReceiptDecoder) {
    // Whatever decodes must encode, and the encoding must decode again.
    let encoded = ReceiptEncoder().encodePayload(receipt)
    _ = try? decoder.decodePayload(encoded)
}
