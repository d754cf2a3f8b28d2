/// A file opened through a `FileSystem`: its descriptor and the path it was opened by, so
/// every error about it can name the file.
public struct OpenFile: Hashable, Sendable {
    /// The path the file was opened by.
    public let path: String
    /// The descriptor (a fake file system may choose any number).
    public let descriptor: Int32

    /// Wraps a descriptor.
    public init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }
}
