import COpenSSL

/// Secret bytes (keys, passphrases) kept in their own allocation and wiped when released.
///
/// Immutable after creation, so it is safe to share between threads.
public final class SecureBytes: @unchecked Sendable {
    // Written only in `init`, wiped only in `deinit`: immutable in between.
    private let storage: UnsafeMutableRawBufferPointer

    private let byteCount: Int

    /// The number of bytes held.
    public var count: Int { byteCount }

    /// Copies `bytes` into a new wiped-on-release allocation.
    public init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        var index = 0
        for byte in bytes {
            storage[index] = byte
            index += 1
        }
        byteCount = bytes.count
    }

    /// Returns `count` fresh random bytes from OpenSSL's generator.
    /// - Throws: `CryptoError` if the generator fails.
    public static func random(count: Int) throws -> SecureBytes {
        var bytes = try SecureRandom.bytes(count: count)
        defer { bytes.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        return SecureBytes(bytes)
    }

    deinit {
        OPENSSL_cleanse(storage.baseAddress, storage.count)
        storage.deallocate()
    }

    /// Calls `body` with the secret bytes; the pointer must not escape `body`.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<byteCount]))
    }

    /// A copy of the bytes as an array (for serialising a wrapped form; wipe the copy when done).
    public var copiedBytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Compares in constant time with respect to the content.
    public func constantTimeEquals(_ other: SecureBytes) -> Bool {
        guard byteCount == other.byteCount else { return false }
        return withUnsafeBytes { a in
            other.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }
}
