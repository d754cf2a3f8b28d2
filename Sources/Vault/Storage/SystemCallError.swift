/// A failed system call: which one, and its `errno`.
public struct SystemCallError: Error, Sendable, Hashable {
    /// The call, e.g. "fsync".
    public var operation: String
    /// The `errno` it set.
    public var code: Int32

    /// Creates an error.
    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }
}
