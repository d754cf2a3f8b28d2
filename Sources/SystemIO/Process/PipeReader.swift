#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a stream (a pipe to or from a child process) by its descriptor.
///
/// `FileHandle.availableData` stops the process with a fatal error when a read is interrupted
/// by a signal (`EINTR`), which Foundation's own child-process handling delivers; this read
/// goes through the package's one system-call wrapper, which retries it.
public enum PipeReader {
    /// Blocks until the stream has bytes or ends, and returns at most `maximum` of them;
    /// empty at the end of the stream.
    /// - Throws: `SystemCallError` for a failure other than an interruption.
    public static func read(descriptor: Int32, maximum: Int = 65_536) throws(SystemCallError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = try Syscall.retrying("read", path: "descriptor \(descriptor)") {
            buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, maximum) }
        }
        buffer.removeLast(maximum - count)
        return buffer
    }
}

/// libc's `read`, named apart from `PipeReader.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
