import COpenSSL

/// Process-wide set-up of OpenSSL.
public enum CryptoLibrary {
    /// Initializes OpenSSL without its exit-time clean-up. Call first thing in `main`.
    ///
    /// By default OpenSSL frees its global state from an `atexit` handler; a task still signing
    /// or hashing on another thread when the process exits then crashes on a freed lock.
    /// The process is ending anyway, so the kernel reclaims that memory instead.
    /// - Returns: whether OpenSSL accepted the settings (false when it was already initialized).
    @discardableResult
    public static func initialize() -> Bool {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
    }
}
