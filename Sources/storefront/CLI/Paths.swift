/// Path arithmetic on strings, with no file system access.
enum Paths {
    /// `path` made absolute: `~/x` under `home`, relative paths under `directory`.
    static func absolute(_ path: String, relativeTo directory: String, home: String?) -> String {
        if path == "~", let home { return home }
        if path.hasPrefix("~/"), let home { return join(home, String(path.dropFirst(2))) }
        if path.hasPrefix("/") { return path }
        return join(directory, path)
    }

    /// `base/component` with exactly one slash between them.
    static func join(_ base: String, _ component: String) -> String {
        if base.hasSuffix("/") { return base + component }
        return base + "/" + component
    }
}
