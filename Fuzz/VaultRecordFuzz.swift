import Foundation

// libFuzzer target for the vault's record payload decoder (`make fuzz`): the plaintext of a
// record, read after it authenticated (so only a bug or a stolen key gives it bad bytes), and
// the batch-marker count read from it. Built with `swiftc -sanitize=fuzzer,address` together
// with the Vault sources it needs and SystemIO as a static library, so a trap, an overflow or a
// read past the input is a crash. A payload that decodes must encode and decode back to itself
// (dates to the millisecond the file keeps).

@_cdecl("LLVMFuzzerTestOneInput")
public func vaultRecordFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard let payload = RecordPayload.decode(bytes) else { return 0 }
    _ = payload.batchCount
    guard let again = RecordPayload.decode(payload.encoded()) else {
        fatalError("a decoded payload does not decode after encoding: \(payload)")
    }
    switch (payload, again) {
    case (.delete(let a), .delete(let b)):
        check(a == b, "a delete changed its item: \(a) → \(b)")
    case (.put(let a), .put(let b)):
        check(
            a.id == b.id && a.label == b.label && a.attributes == b.attributes && a.data == b.data,
            "a put changed: \(a) → \(b)")
        check(
            abs(a.created.timeIntervalSince(b.created)) <= 0.001
                && abs(a.modified.timeIntervalSince(b.modified)) <= 0.001,
            "a put's dates moved by more than a millisecond: \(a.created.timeIntervalSince1970), \(a.modified.timeIntervalSince1970) → \(b.created.timeIntervalSince1970), \(b.modified.timeIntervalSince1970)"
        )
    default:
        fatalError("a payload changed its kind: \(payload) → \(again)")
    }
    return 0
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
