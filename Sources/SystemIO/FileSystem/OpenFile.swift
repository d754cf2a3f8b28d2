/// A file opened through a `FileSystem`: its descriptor and the path it was opened by, so
/// every error about it can name the file.
public struct OpenFile: Hashable, Sendable {
    /// The path the file was opened by.
    public let path: String
    /// The descriptor.
    public let descriptor: Int32
}
