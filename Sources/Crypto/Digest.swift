import COpenSSL

/// One-shot and streaming message digests through OpenSSL's EVP interface.
public struct Digest: ~Copyable {
    /// A digest algorithm.
    public enum Algorithm: String, Sendable, CaseIterable {
        /// SHA-1, 20 bytes (the receipt hash Apple defines; no longer collision-resistant).
        case sha1 = "SHA1"
        /// SHA-256, 32 bytes.
        case sha256 = "SHA256"
        /// SHA-384, 48 bytes.
        case sha384 = "SHA384"
        /// SHA-512, 64 bytes.
        case sha512 = "SHA512"

        /// The digest's length in bytes.
        public var byteCount: Int {
            switch self {
            case .sha1: 20
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }

        fileprivate var evp: OpaquePointer? {
            switch self {
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha384: EVP_sha384()
            case .sha512: EVP_sha512()
            }
        }
    }

    private let context: OpaquePointer
    /// The algorithm this digest computes.
    public let algorithm: Algorithm

    /// Starts a streaming digest.
    /// - Throws: `CryptoError` if OpenSSL cannot set up the context.
    public init(_ algorithm: Algorithm) throws {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError("EVP_MD_CTX_new") }
        guard EVP_DigestInit_ex(context, algorithm.evp, nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw CryptoError("EVP_DigestInit_ex")
        }
        self.context = context
        self.algorithm = algorithm
    }

    private init(context: OpaquePointer, algorithm: Algorithm) {
        self.context = context
        self.algorithm = algorithm
    }

    deinit { EVP_MD_CTX_free(context) }

    /// An independent copy of the digest so far (`EVP_MD_CTX_copy_ex`): finalizing the copy gives
    /// the digest of everything fed in until now while this one goes on, so a stream's running
    /// digest can be read at any point without hashing the bytes twice.
    /// - Throws: `CryptoError` if OpenSSL cannot copy the context.
    public func copy() throws -> Digest {
        guard let copied = EVP_MD_CTX_new() else { throw CryptoError("EVP_MD_CTX_new") }
        guard EVP_MD_CTX_copy_ex(copied, context) == 1 else {
            EVP_MD_CTX_free(copied)
            throw CryptoError("EVP_MD_CTX_copy_ex")
        }
        return Digest(context: copied, algorithm: algorithm)
    }

    /// Feeds `bytes` into the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
            throw CryptoError("EVP_DigestUpdate")
        }
    }

    /// Feeds `bytes` into the digest.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        let array = Array(bytes)
        try array.withUnsafeBytes { try update($0) }
    }

    /// Returns the digest of everything fed in and ends the computation.
    public consuming func finalize() throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1 else { throw CryptoError("EVP_DigestFinal_ex") }
        return Array(out.prefix(Int(length)))
    }

    /// Returns the digest of `bytes` in one call.
    public static func hash<Bytes: Sequence>(_ algorithm: Algorithm, _ bytes: Bytes) throws -> [UInt8]
    where Bytes.Element == UInt8 {
        var digest = try Digest(algorithm)
        try digest.update(bytes)
        return try digest.finalize()
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
