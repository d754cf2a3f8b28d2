import COpenSSL
import Foundation

/// An error from an OpenSSL operation, carrying OpenSSL's own reason text.
public struct CryptoError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What the library was doing, e.g. "RAND_bytes".
    public let operation: String
    /// OpenSSL's error queue, drained when the error was made.
    public let reason: String

    /// Creates an error for `operation`, draining OpenSSL's error queue into `reason`.
    public init(_ operation: String) {
        self.operation = operation
        self.reason = CryptoError.drainQueue()
    }

    /// Creates an error with an explicit reason (argument checks made before calling OpenSSL).
    public init(_ operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    public var description: String {
        reason.isEmpty ? "\(operation) failed" : "\(operation) failed: \(reason)"
    }

    private static func drainQueue() -> String {
        var parts: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            parts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return parts.joined(separator: "; ")
    }
}

extension CryptoError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
