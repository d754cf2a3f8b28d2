/// Path arithmetic on plain strings (no file-system access).
public enum FilePaths {
    /// The directory holding `path`: everything before its last `/` ("/" for a file at the
    /// root, "." for a bare name).
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }
}
