import Foundation

/// Why a receipt could not be read. Every case says where and what, so a person can act on it.
public enum ReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not well-formed BER at `offset`.
    case malformed(offset: Int, reason: String)
    /// The file is neither DER nor base64 of DER.
    case notBase64(reason: String)
    /// The container is well-formed BER but not a PKCS#7 SignedData of data.
    case notSignedData(offset: Int, reason: String)
    /// A required receipt attribute is absent.
    case missingAttribute(type: Int64, name: String)
    /// A receipt attribute's value cannot be read as its documented type.
    case invalidAttribute(type: Int64, name: String, offset: Int, reason: String)

    public var description: String {
        switch self {
        case .malformed(let offset, let reason):
            "malformed BER at byte \(offset): \(reason)"
        case .notBase64(let reason):
            "not a receipt file (neither DER nor base64): \(reason)"
        case .notSignedData(let offset, let reason):
            "not a PKCS#7 SignedData receipt (byte \(offset)): \(reason)"
        case .missingAttribute(let type, let name):
            "receipt lacks attribute \(type) (\(name))"
        case .invalidAttribute(let type, let name, let offset, let reason):
            "receipt attribute \(type) (\(name)) at byte \(offset): \(reason)"
        }
    }
}

extension ReceiptError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
