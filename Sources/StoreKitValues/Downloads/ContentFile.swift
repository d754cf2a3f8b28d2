/// One file of a product's hosted content, as its manifest lists it. The one type for it: the
/// catalog's content sidecar lists these, and the engine downloads and checks them.
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

    /// Why this entry cannot be used safely, or `nil` when it can (`pathProblem`, a negative
    /// size, `digestProblem`). Manifests come from a store, a web server or a catalog on disk:
    /// never trusted.
    public var problem: String? {
        if let problem = Self.pathProblem(path) { return problem }
        if size < 0 { return "the size \(size) is negative" }
        return Self.digestProblem(sha256)
    }

    /// Why `path` cannot name a file inside the content, or `nil` when it can: it must be
    /// relative, without `.`/`..` or empty components, and without a NUL byte.
    public static func pathProblem(_ path: String) -> String? {
        if path.isEmpty { return "the path is empty" }
        if path.hasPrefix("/") { return "the path \"\(path)\" is absolute; expected a path inside the content" }
        // One pass over the bytes: each component's length, and whether it is only dots.
        var length = 0
        var onlyDots = true
        var badComponent = false
        var nul = false
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                if length == 0 || (onlyDots && length <= 2) { badComponent = true }
                (length, onlyDots) = (0, true)
            case 0:
                nul = true
                (length, onlyDots) = (length + 1, false)
            default:
                (length, onlyDots) = (length + 1, onlyDots && byte == UInt8(ascii: "."))
            }
        }
        if length == 0 || (onlyDots && length <= 2) { badComponent = true }
        if badComponent { return "the path \"\(path)\" has an empty, \".\" or \"..\" component" }
        if nul { return "the path contains a NUL byte" }
        return nil
    }

    /// Why `sha256` is not a digest, or `nil` when it is: 64 lowercase hex digits.
    public static func digestProblem(_ sha256: String) -> String? {
        let hex = sha256.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
        return sha256.utf8.count == 64 && hex ? nil : "sha256 \"\(sha256)\" is not 64 lowercase hex digits"
    }
}
