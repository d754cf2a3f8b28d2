import Crypto

/// Why a receipt could not be read.
public enum ReceiptError: Error, Equatable, Sendable {
    /// The bytes are not well-formed BER at `offset`.
    case malformed(offset: Int, reason: String)
}
