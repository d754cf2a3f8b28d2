import Foundation

/// A failed system call: its name, the path it was about, and the `errno` it set.
///
/// `SystemIO` raises it where the call fails (after retrying `EINTR`); each layer above
/// translates it into its own error enum, naming its own file.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call, e.g. "fdatasync" or "rename".
    public var operation: String
    /// The path the call was about (for `rename`, the destination); empty when there is none.
    public var path: String
    /// The error number.
    public var errno: Errno

    /// Creates an error.
    /// - Parameters:
    ///   - operation: the call's name.
    ///   - path: the file or directory it was about.
    ///   - errno: what it failed with.
    public init(_ operation: String, path: String, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The raw `errno` value.
    public var code: Int32 { errno.rawValue }

    /// "fsync failed on PATH: Input/output error (errno 5)".
    public var description: String {
        let target = path.isEmpty ? "" : " on \(path)"
        return "\(operation) failed\(target): \(errno) (errno \(errno.rawValue))"
    }
}

extension SystemCallError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
