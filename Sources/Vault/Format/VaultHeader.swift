import Crypto

/// The fixed header at the start of a vault file (Docs/formats/vault.md, "Header").
struct VaultHeader: Equatable {
    /// How the key-encryption key is obtained. Stored raw; never renumber.
    enum KeyKind: UInt8 {
        case keyFile = 1
        case passphrase = 2
    }

    var major: UInt16 = VaultFormat.major
    var minor: UInt16 = VaultFormat.minor
    var fileID: [UInt8]
    var cipher: AEAD.Algorithm
    var keyKind: KeyKind
    var scrypt: Scrypt.Parameters
    var salt: [UInt8]
    var wrapNonce: [UInt8]
    var wrappedKey: [UInt8]

    static let fileIDRange = 16..<32
    static let slotRange = 33..<84

    /// The serialised header, checksum included.
    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: VaultFormat.headerLength)
        w.append(VaultFormat.magic)
        w.uint16(major)
        w.uint16(minor)
        w.uint32(UInt32(VaultFormat.headerLength))
        w.append(fileID)
        w.uint8(cipher.rawValue)
        w.append(slotBytes())
        w.append(wrapNonce)
        w.append(wrappedKey)
        let checksum = (try? Digest.hash(.sha256, w.bytes)) ?? []
        w.append(checksum)
        return w.bytes
    }

    /// Bytes 33..<84: key kind, scrypt parameters and salt — the associated data of the
    /// wrapped data key (with the magic), so none of them can be changed without the key.
    func slotBytes() -> [UInt8] {
        var w = ByteWriter(capacity: 51)
        w.uint8(keyKind.rawValue)
        w.uint8(scrypt.log2N)
        w.uint8(0)
        w.uint32(scrypt.r)
        w.uint32(scrypt.p)
        w.uint64(scrypt.maxMemory)
        w.append(salt)
        return w.bytes
    }

    /// Associated data for wrapping the data key.
    func wrapAssociatedData() -> [UInt8] { Array("SFVAULT key slot v1".utf8) + slotBytes() }

    /// Parses and checks a header from the start of `bytes` (the file's first bytes).
    /// Every length is checked against limits before anything is read or allocated.
    static func parse(_ bytes: ArraySlice<UInt8>, path: String) throws(VaultError) -> (VaultHeader, length: Int) {
        var r = ByteReader(bytes)
        guard let magic = r.take(VaultFormat.magic.count) else {
            throw .notAVault(path: path, detail: "only \(bytes.count) bytes long")
        }
        guard Array(magic) == VaultFormat.magic else { throw .notAVault(path: path, detail: "bad magic") }
        guard let major = r.uint16(), let minor = r.uint16(), let length = r.uint32() else {
            throw .integrity(path: path, offset: 8, detail: "the header is truncated")
        }
        let lengthPlausible = length >= UInt32(VaultFormat.headerLength) && length <= VaultFormat.maxHeaderLength
        let checksumOK = lengthPlausible && Int(length) <= bytes.count && checksumMatches(bytes, length: Int(length))
        // A foreign major version may lay out its header differently: report the version
        // (whatever its checksum says) rather than guess at a layout we do not know.
        if major != VaultFormat.major { throw .unsupportedVersion(path: path, major: major, minor: minor) }
        guard lengthPlausible else {
            throw .integrity(
                path: path, offset: 12,
                detail:
                    "header length field \(length) is outside \(VaultFormat.headerLength)...\(VaultFormat.maxHeaderLength)"
            )
        }
        guard Int(length) <= bytes.count else {
            throw .integrity(
                path: path, offset: UInt64(bytes.count),
                detail: "the header is truncated (declares \(length) bytes, file has \(bytes.count))")
        }
        guard checksumOK else {
            throw .integrity(path: path, offset: UInt64(length) - 32, detail: "header checksum mismatch")
        }
        if minor > VaultFormat.minor { throw .unsupportedVersion(path: path, major: major, minor: minor) }
        guard Int(length) == VaultFormat.headerLength else {
            throw .integrity(
                path: path, offset: 12, detail: "header length \(length) does not match version \(major).\(minor)")
        }
        guard let fileID = r.take(16), let cipherRaw = r.uint8(), let kindRaw = r.uint8(),
            let log2N = r.uint8(), r.take(1) != nil, let scryptR = r.uint32(), let scryptP = r.uint32(),
            let maxMemory = r.uint64(), let salt = r.take(32), let nonce = r.take(12), let wrapped = r.take(48)
        else { throw .integrity(path: path, offset: 16, detail: "the header is truncated") }
        guard let cipher = AEAD.Algorithm(rawValue: cipherRaw) else {
            throw .integrity(path: path, offset: 32, detail: "unknown cipher \(cipherRaw)")
        }
        guard let kind = KeyKind(rawValue: kindRaw) else {
            throw .integrity(path: path, offset: 33, detail: "unknown key kind \(kindRaw)")
        }
        let header = VaultHeader(
            major: major, minor: minor, fileID: Array(fileID), cipher: cipher, keyKind: kind,
            scrypt: Scrypt.Parameters(log2N: log2N, r: scryptR, p: scryptP, maxMemory: maxMemory),
            salt: Array(salt), wrapNonce: Array(nonce), wrappedKey: Array(wrapped))
        return (header, Int(length))
    }

    private static func checksumMatches(_ bytes: ArraySlice<UInt8>, length: Int) -> Bool {
        let start = bytes.startIndex
        guard let digest = try? Digest.hash(.sha256, bytes[start..<(start + length - 32)]) else { return false }
        return HMAC.equal(digest, Array(bytes[(start + length - 32)..<(start + length)]))
    }
}
