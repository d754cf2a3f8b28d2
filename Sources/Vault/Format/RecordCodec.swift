import Crypto

/// Seals and opens record frames for one vault file (Docs/VAULT-FORMAT.md, "Records").
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
    /// The frame check's SHA-256, set up once (a listing checks one frame a record).
    private let frameDigest: FrameDigest

    /// Derives the per-file record key and the per-vault item-tag key from the data key.
    init(cipher: AEAD.Algorithm, fileID: [UInt8], dataKey: SecureBytes) throws {
        self.cipher = cipher
        self.fileID = fileID
        recordKey = try AEADKey(cipher, key: try HKDF.derive(
            key: dataKey, salt: fileID, info: Array("storefront vault record key v1".utf8) + [cipher.rawValue], count: 32))
        itemKey = try HMACKey(.sha256, key: try HKDF.derive(
            key: dataKey, salt: [], info: Array("storefront vault item tag v1".utf8), count: 32))
        indexMACKey = try HMACKey(.sha256, key: try HKDF.derive(
            key: dataKey, salt: fileID, info: Array("storefront vault index key v1".utf8), count: 32))
        frameDigest = try FrameDigest()
    }

    /// The chain value before the first record of a file.
    var initialChain: [UInt8] { fileID }

    /// The keyed tag naming an item without revealing it.
    func itemTag(_ id: VaultItem.ID) throws -> [UInt8] {
        var w = ByteWriter()
        w.string(id.service)
        w.string(id.account)
        return Array(try itemKey.authenticate(w.bytes).prefix(16))
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
    func seal(_ payload: RecordPayload, sequence: UInt64, chain: [UInt8], itemTagOverride: [UInt8]? = nil) throws -> (frame: [UInt8], chain: [UInt8]) {
        let plaintext = payload.encoded()
        let nonce = try SecureRandom.bytes(count: AEAD.nonceByteCount)
        var w = ByteWriter(capacity: VaultFormat.frameHeaderLength + plaintext.count + AEAD.tagByteCount)
        w.append(VaultFormat.recordMarker)
        w.uint32(UInt32(plaintext.count + AEAD.tagByteCount))
        w.uint64(sequence)
        w.append(try itemTagOverride ?? itemTag(payload.id))
        w.append(nonce)
        w.append(try frameDigest.hash(w.bytes[...]).prefix(8))
        let ad = associatedData(frameHead: w.bytes[0..<44], chain: chain)
        let sealed = try plaintext.withUnsafeBytes { p in
            try ad.withUnsafeBytes { try recordKey.seal(nonce: nonce, plaintext: p, associatedData: $0) }
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
    func open(_ bytes: ArraySlice<UInt8>, offset: UInt64, sequence: UInt64, chain: [UInt8], path: String) throws -> Outcome {
        let start = bytes.startIndex
        let markerPart = bytes.prefix(VaultFormat.recordMarker.count)
        guard markerPart.elementsEqual(VaultFormat.recordMarker.prefix(markerPart.count)) else {
            throw VaultError.integrity(path: path, offset: offset, detail: "unexpected bytes where a record should start (trailing garbage or damage)")
        }
        guard bytes.count >= VaultFormat.frameHeaderLength else { return .torn }
        let head = bytes[start..<(start + 44)]
        let check = try frameDigest.hash(head).prefix(8)
        guard check.elementsEqual(bytes[(start + 44)..<(start + 52)]) else {
            throw VaultError.integrity(path: path, offset: offset, detail: "record header checksum mismatch")
        }
        var r = ByteReader(head)
        _ = r.take(4)
        guard let length = r.uint32(), let seq = r.uint64(), let tag = r.take(16), let nonce = r.take(12) else {
            return .torn
        }
        guard length >= UInt32(AEAD.tagByteCount), length <= VaultFormat.maxSealedLength else {
            throw VaultError.integrity(path: path, offset: offset + 4, detail: "record length \(length) is outside \(AEAD.tagByteCount)...\(VaultFormat.maxSealedLength)")
        }
        guard seq == sequence else {
            throw VaultError.integrity(path: path, offset: offset + 8, detail: "record number \(seq) where \(sequence) was expected (records reordered, duplicated or spliced)")
        }
        let total = VaultFormat.frameHeaderLength + Int(length)
        guard bytes.count >= total else { return .torn }
        let sealed = bytes[(start + 52)..<(start + total)]
        let ad = associatedData(frameHead: head, chain: chain)
        let plaintext = try sealed.withUnsafeBytes { s in
            try ad.withUnsafeBytes { try recordKey.open(nonce: Array(nonce), sealed: s, associatedData: $0) }
        }
        guard let plaintext else {
            throw VaultError.integrity(path: path, offset: offset, detail: "record \(seq) fails authentication (altered, moved, or from another vault)")
        }
        guard let payload = RecordPayload.decode(plaintext) else {
            throw VaultError.integrity(path: path, offset: offset, detail: "record \(seq) is malformed")
        }
        guard HMAC.equal(try itemTag(payload.id), Array(tag)) else {
            throw VaultError.integrity(path: path, offset: offset + 16, detail: "record \(seq) is bound to a different item")
        }
        return .record(payload, length: total, chain: Array(sealed.suffix(AEAD.tagByteCount)))
    }

    private static let associatedDataLabel = Array("SFVAULT record v1".utf8)

    private func associatedData(frameHead: ArraySlice<UInt8>, chain: [UInt8]) -> [UInt8] {
        var ad: [UInt8] = []
        ad.reserveCapacity(Self.associatedDataLabel.count + fileID.count + frameHead.count + chain.count)
        ad += Self.associatedDataLabel
        ad += fileID
        ad += frameHead
        ad += chain
        return ad
    }
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
}
