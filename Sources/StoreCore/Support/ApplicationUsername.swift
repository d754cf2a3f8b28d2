internal import Crypto

/// Turns an account name into the opaque `applicationUsername` a payment carries, as
/// DYFStoreKit suggests: the store can tell accounts apart without learning who they are.
public enum ApplicationUsername {
    /// The lowercase hex SHA-256 of the account name's UTF-8 bytes.
    public static func hash(_ accountName: String) -> String {
        // SHA-256 through EVP cannot fail on a working OpenSSL; an empty string would signal it.
        (try? Digest.hash(.sha256, Array(accountName.utf8)).hexString) ?? ""
    }
}
