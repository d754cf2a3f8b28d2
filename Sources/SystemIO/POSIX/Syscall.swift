#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one wrapper every system call of the package goes through (swift-nio's
/// `syscall(blocking:where:_:)`): it retries `EINTR` and turns any other failure into a
/// `SystemCallError` naming the call and the path.
enum Syscall {
    /// Runs `call` until it does not fail with `EINTR`.
    /// - Parameters:
    ///   - name: the call's name, for the error.
    ///   - path: the file it is about, for the error.
    ///   - call: the libc call; -1 (any negative result) means failure with `errno` set.
    /// - Returns: the call's non-negative result.
    @inline(__always)
    static func retrying<Result: BinaryInteger>(
        _ name: String, path: String, _ call: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(name, path: path, errno: Errno(rawValue: code))
        }
    }
}
