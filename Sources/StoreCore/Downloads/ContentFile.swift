/// One file of a product's hosted content, as its manifest lists it.
public struct ContentFile: Codable, Hashable, Sendable {
    /// The path inside the content, relative, with `/` between components (`levels/01.json`).
    public let path: String
    /// The size in bytes.
    public let size: Int64
    /// The lowercase hex SHA-256 of the file's bytes.
    public let sha256: String

    /// Creates a file entry.
    public init(path: String, size: Int64, sha256: String) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }

    /// Why this entry cannot be used safely, or `nil` when it can: the path must be relative,
    /// without `.`/`..` or empty components; the size must not be negative; the digest must be
    /// 64 lowercase hex digits. Manifests come from a store or a web server: never trusted.
    public var problem: String? {
        if path.isEmpty { return "the path is empty" }
        if path.hasPrefix("/") { return "the path \"\(path)\" is absolute; expected a path inside the content" }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            return "the path \"\(path)\" has an empty, \".\" or \"..\" component"
        }
        if path.utf8.contains(0) { return "the path contains a NUL byte" }
        if size < 0 { return "the size \(size) is negative" }
        let hex = sha256.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
        if sha256.utf8.count != 64 || !hex { return "sha256 \"\(sha256)\" is not 64 lowercase hex digits" }
        return nil
    }
}
