import Crypto

/// Seals and opens record frames for one vault file (Docs/formats/vault.md, "Records").
///
/// Frame: marker(4) · sealed length L(4) · sequence(8) · item tag(16) · nonce(12) ·
/// frame check(8) · ciphertext and tag(L). The associated data binds the frame to the file
/// (file id, and a record key derived from it), to its item (the keyed item tag), to its
/// position (the sequence number) and to everything before it (the previous record's tag).
struct RecordCodec {
    let cipher: AEAD.Algorithm
    let fileID: [UInt8]
    /// The record key, with its OpenSSL contexts kept (a codec is used under the vault's lock).
    private let recordKey: AEADKey
    private let itemKey: HMACKey
    /// Authenticates this file's index (`NAME.idx`), so nobody without the key can point an
    /// item at another record.
    let indexMACKey: HMACKey
    /// Seals this file's derived caches (`DerivedCache`): they hold what the records hold.
    let derivedCacheKey: AEADKey
    /// The frame check's SHA-256, set up once (a listing checks one frame a record).
    private let frameDigest: FrameDigest
    /// The tags of the items this codec sealed or keyed last.
    private let itemTags = ItemTagCache()

    /// Derives the per-file record key and the per-vault item-tag key from the data key.
    init(cipher: AEAD.Algorithm, fileID: [UInt8], dataKey: SecureBytes) throws {
        self.cipher = cipher
        self.fileID = fileID
        recordKey = try AEADKey(
            cipher,
            key: try HKDF.derive(
                key: dataKey, salt: fileID, info: Array("storefront vault record key v1".utf8) + [cipher.rawValue],
                count: 32))
        itemKey = try HMACKey(
            .sha256,
            key: try HKDF.derive(
                key: dataKey, salt: [], info: Array("storefront vault item tag v1".utf8), count: 32))
        indexMACKey = try HMACKey(
            .sha256,
            key: try HKDF.derive(
                key: dataKey, salt: fileID, info: Array("storefront vault index key v1".utf8), count: 32))
        derivedCacheKey = try AEADKey(
            cipher,
            key: try HKDF.derive(
                key: dataKey, salt: fileID,
                info: Array("storefront vault derived cache key v1".utf8) + [cipher.rawValue], count: 32))
        frameDigest = try FrameDigest()
    }

    /// The chain value before the first record of a file.
    var initialChain: [UInt8] { fileID }

    /// The keyed tag naming an item without revealing it.
    func itemTag(_ id: VaultItem.ID) throws -> [UInt8] {
        try itemTags.tag(id) {
            var w = ByteWriter()
            w.string(id.service)
            w.string(id.account)
            return Array(try itemKey.authenticate(w.bytes).prefix(16))
        }
    }

    /// The keyed tag naming a service, which leads an item's key in the index so that a
    /// service's items sit together: HMAC-SHA256(item-tag key, "service" ‖ service)[0..4].
    func serviceTag(_ service: String) throws -> [UInt8] {
        var w = ByteWriter()
        w.append(Array("service".utf8))
        w.string(service)
        return Array(try itemKey.authenticate(w.bytes).prefix(4))
    }

    /// An item's key in the index: its service tag, then the first 12 bytes of its item tag.
    func indexKey(_ id: VaultItem.ID) throws -> [UInt8] {
        try serviceTag(id.service) + itemTag(id).prefix(12)
    }

    /// Seals `payload` as record number `sequence` following the record whose tag is `chain`.
    /// - Returns: the frame bytes and the new chain value (this record's tag).
    func seal(
        _ payload: RecordPayload, sequence: UInt64, chain: [UInt8], itemTagOverride: [UInt8]? = nil
    ) throws -> (frame: [UInt8], chain: [UInt8]) {
        let plaintext = payload.encoded()
        let nonce = try SecureRandom.bytes(count: AEAD.nonceByteCount)
        var w = ByteWriter(capacity: VaultFormat.frameHeaderLength + plaintext.count + AEAD.tagByteCount)
        w.append(VaultFormat.recordMarker)
        w.uint32(UInt32(plaintext.count + AEAD.tagByteCount))
        w.uint64(sequence)
        w.append(try itemTagOverride ?? itemTag(payload.id))
        w.append(nonce)
        w.append(try frameDigest.hash(w.bytes[...]).prefix(8))
        let sealed = try plaintext.withUnsafeBytes { p in
            try w.bytes.withUnsafeBytes { frame in
                try chain.withUnsafeBytes { chain in
                    try withAssociatedData(frameHead: UnsafeRawBufferPointer(rebasing: frame[0..<44]), chain: chain) {
                        try recordKey.seal(nonce: nonce, plaintext: p, associatedData: $0)
                    }
                }
            }
        }
        w.append(sealed)
        return (w.bytes, Array(sealed.suffix(AEAD.tagByteCount)))
    }

    /// What the next bytes of the log hold.
    enum Outcome {
        /// A record that verified: its payload, its length in bytes and the new chain value.
        case record(RecordPayload, length: Int, chain: [UInt8])
        /// An incomplete record at the end of the file (a write torn by a crash).
        case torn
    }

    /// Parses and opens the record at the start of `bytes` (non-empty), found at file offset
    /// `offset`. Nothing is allocated from a length field before it has been checked.
    func open(
        _ bytes: ArraySlice<UInt8>, offset: UInt64, sequence: UInt64, chain: [UInt8], path: String
    ) throws -> Outcome {
        var plaintext: [UInt8] = []
        let opened = try bytes.withUnsafeBytes { record in
            try chain.withUnsafeBytes { chain in
                try open(record, offset: offset, sequence: sequence, chain: chain, path: path, plaintext: &plaintext) {
                    $0.payload
                }
            }
        }
        guard let (payload, length) = opened else { return .torn }
        let end = bytes.startIndex + length
        return .record(payload, length: length, chain: Array(bytes[(end - AEAD.tagByteCount)..<end]))
    }

    /// Parses and opens the record at the start of `bytes` (non-empty), found at file offset
    /// `offset`, decrypting into `plaintext` (grown when too small, else reused), and hands
    /// its payload's layout to `body` once every check passed: the frame check, the length,
    /// the sequence number, the AEAD tag over the frame and the chain link, the payload's
    /// form, and the item tag. Nothing is allocated from a length field before it has been
    /// checked, nor for a record when `plaintext` is large enough.
    /// - Returns: what `body` returned and the record's length, or `nil` for a torn record.
    func open<R>(
        _ bytes: UnsafeRawBufferPointer, offset: UInt64, sequence: UInt64, chain: UnsafeRawBufferPointer, path: String,
        plaintext: inout [UInt8], _ body: (PayloadLayout) throws -> R
    ) throws -> (R, length: Int)? {
        let marker = VaultFormat.recordMarker
        var markerMatches = true
        for index in 0..<min(marker.count, bytes.count) where bytes[index] != marker[index] { markerMatches = false }
        guard markerMatches else {
            throw VaultError.integrity(
                path: path, offset: offset,
                detail: "unexpected bytes where a record should start (trailing garbage or damage)")
        }
        guard bytes.count >= VaultFormat.frameHeaderLength else { return nil }
        let head = UnsafeRawBufferPointer(rebasing: bytes[0..<44])
        guard try frameDigest.matches(head, UnsafeRawBufferPointer(rebasing: bytes[44..<52])) else {
            throw VaultError.integrity(path: path, offset: offset, detail: "record header checksum mismatch")
        }
        let length = head.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian
        let seq = head.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian
        guard length >= UInt32(AEAD.tagByteCount), length <= VaultFormat.maxSealedLength else {
            throw VaultError.integrity(
                path: path, offset: offset + 4,
                detail: "record length \(length) is outside \(AEAD.tagByteCount)...\(VaultFormat.maxSealedLength)")
        }
        guard seq == sequence else {
            throw VaultError.integrity(
                path: path, offset: offset + 8,
                detail: "record number \(seq) where \(sequence) was expected (records reordered, duplicated or spliced)"
            )
        }
        let total = VaultFormat.frameHeaderLength + Int(length)
        guard bytes.count >= total else { return nil }
        let sealed = UnsafeRawBufferPointer(rebasing: bytes[52..<total])
        let plaintextCount = Int(length) - AEAD.tagByteCount
        if plaintext.count < plaintextCount {
            plaintext = [UInt8](repeating: 0, count: max(plaintextCount, 2 * plaintext.count))
        }
        let verified = try withAssociatedData(frameHead: head, chain: chain) { ad in
            try plaintext.withUnsafeMutableBytes { out in
                try recordKey.open(
                    nonce: UnsafeRawBufferPointer(rebasing: head[32..<44]), sealed: sealed, associatedData: ad,
                    into: UnsafeMutableRawBufferPointer(rebasing: out[0..<plaintextCount]))
            }
        }
        guard verified else {
            throw VaultError.integrity(
                path: path, offset: offset,
                detail: "record \(seq) fails authentication (altered, moved, or from another vault)")
        }
        let result = try plaintext.withUnsafeBytes { all in
            guard let layout = PayloadLayout.parse(UnsafeRawBufferPointer(rebasing: all[0..<plaintextCount])) else {
                throw VaultError.integrity(path: path, offset: offset, detail: "record \(seq) is malformed")
            }
            guard try itemTagMatches(layout.idBytes, UnsafeRawBufferPointer(rebasing: head[16..<32])) else {
                throw VaultError.integrity(
                    path: path, offset: offset + 16, detail: "record \(seq) is bound to a different item")
            }
            return try body(layout)
        }
        return (result, total)
    }

    /// Whether `tag` is the item tag of the service and account encoded as `idBytes` (what
    /// `itemTag(_:)` authenticates), compared in constant time, with nothing allocated.
    private func itemTagMatches(_ idBytes: UnsafeRawBufferPointer, _ tag: UnsafeRawBufferPointer) throws -> Bool {
        try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { mac in
            let count = try itemKey.authenticate(idBytes, into: mac)
            guard count >= tag.count else { return false }
            var difference: UInt8 = 0
            for index in 0..<tag.count { difference |= mac[index] ^ tag[index] }
            return difference == 0
        }
    }

    /// Runs `body` with the associated data of a record (label ‖ file id ‖ frame head ‖ chain)
    /// laid out on the stack.
    private func withAssociatedData<R>(
        frameHead: UnsafeRawBufferPointer, chain: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        let label = Self.associatedDataLabel
        let count = label.count + fileID.count + frameHead.count + chain.count
        return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { ad in
            var position = 0
            label.withUnsafeBytes { ad.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            position += label.count
            fileID.withUnsafeBytes {
                (ad.baseAddress! + position).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
            }
            position += fileID.count
            if let base = frameHead.baseAddress {
                (ad.baseAddress! + position).copyMemory(from: base, byteCount: frameHead.count)
            }
            position += frameHead.count
            if let base = chain.baseAddress {
                (ad.baseAddress! + position).copyMemory(from: base, byteCount: chain.count)
            }
            return try body(UnsafeRawBufferPointer(ad))
        }
    }

    private static let associatedDataLabel = Array("SFVAULT record v1".utf8)
}

/// SHA-256 from a context set up once and copied for each message: OpenSSL looks the
/// algorithm up at every fresh `Digest`, which costs more than hashing a 44-byte frame head.
private final class FrameDigest {
    private let initial: Digest

    init() throws { initial = try Digest(.sha256) }

    func hash(_ bytes: ArraySlice<UInt8>) throws -> [UInt8] {
        var digest = try initial.copy()
        try bytes.withUnsafeBytes { try digest.update($0) }
        return try digest.finalize()
    }

    /// Whether `check` is the first bytes of the hash of `bytes` (a frame's check).
    func matches(_ bytes: UnsafeRawBufferPointer, _ check: UnsafeRawBufferPointer) throws -> Bool {
        var digest = try initial.copy()
        try digest.update(bytes)
        return try digest.finalize().prefix(check.count).elementsEqual(check)
    }
}
