import Foundation

/// Misconfiguration of a `ReceiptValidator`.
public enum ReceiptValidatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No trusted root was given.
    case noTrustedRoot
    /// The trusted root at `index` is not a DER or PEM certificate.
    case unreadableRoot(index: Int, reason: String)

    public var description: String {
        switch self {
        case .noTrustedRoot: "no trusted root certificate was given"
        case .unreadableRoot(let index, let reason): "trusted root \(index) is not a certificate: \(reason)"
        }
    }
}

extension ReceiptValidatorError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
