import COpenSSL

/// Process-wide set-up of OpenSSL.
public enum CryptoLibrary {
    /// Initializes OpenSSL without its exit-time clean-up and without its configuration file.
    /// Call first thing in `main`.
    ///
    /// By default OpenSSL frees its global state from an `atexit` handler; a task still signing
    /// or hashing on another thread when the process exits then crashes on a freed lock.
    /// The process is ending anyway, so the kernel reclaims that memory instead.
    ///
    /// OpenSSL's configuration (`openssl.cnf`, or the file `OPENSSL_CONF` names) is not read:
    /// every algorithm the program uses is the default provider's, named in the code, so a
    /// machine's configuration could only change what the program signs and checks, or stop
    /// it (Docs/decisions/0094-openssl-configuration-not-read.md).
    /// - Returns: whether OpenSSL accepted the settings (false when it was already initialized).
    @discardableResult
    public static func initialize() -> Bool {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_NO_LOAD_CONFIG), nil) == 1
    }
}
