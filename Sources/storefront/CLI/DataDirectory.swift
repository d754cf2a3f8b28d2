import SystemIO

/// Where the CLI keeps state: `--data-dir`, else `$STOREFRONT_HOME`, else
/// `$XDG_DATA_HOME/storefront`, else `~/.local/share/storefront`. Resolving never creates it.
enum DataDirectory {
    /// The data directory for an option value and an environment.
    ///
    /// - Parameters:
    ///   - option: the `--data-dir` value, if given (relative paths resolve against `currentDirectory`).
    ///   - environment: the process environment.
    ///   - currentDirectory: the working directory.
    /// - Throws: `CLIError.runtime` when nothing names a directory (no option, no `HOME`).
    static func resolve(
        option: String?, environment: [String: String], currentDirectory: String
    ) throws(CLIError) -> String {
        if let option { return Paths.absolute(option, relativeTo: currentDirectory, home: environment["HOME"]) }
        if let home = environment["STOREFRONT_HOME"], !home.isEmpty {
            return Paths.absolute(home, relativeTo: currentDirectory, home: environment["HOME"])
        }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return Paths.join(xdg, "storefront")
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw .runtime(
                "cannot choose a data directory: HOME is not set; pass --data-dir PATH or set STOREFRONT_HOME")
        }
        return Paths.join(home, ".local/share/storefront")
    }

    /// The first part of the data directory `path` this process may not write, if any: the
    /// directory itself, the store's (`store`, `store/owners`) or the files the store and the
    /// vault write in place (a `chmod -R a-w`, a read-only mount). Parts not made yet do not count.
    static func unwritablePart(_ path: String, fileSystem: any FileSystem) -> String? {
        let parts = [
            "", "/store", "/store/owners", "/store/journal.jsonl", "/store/store.lock", "/vault.sfv", "/vault.sfv.lock",
            "/vault.key",
        ]
        for part in parts.map({ path + $0 }) {
            do {
                try fileSystem.checkWritable(part)
            } catch {
                if [.accessDenied, .readOnlyFileSystem, .notPermitted].contains(error.errno) { return part }
            }
        }
        return nil
    }

    /// Why a data directory could not be made or used, in words: which path is in the way.
    static func explain(_ error: SystemCallError) -> String {
        switch error.errno {
        case .notADirectory: "\(error.path) is a file, not a directory"
        case .symbolicLink: "\(error.path) is a loop of symbolic links"
        case .accessDenied, .notPermitted: "permission denied at \(error.path)"
        case .readOnlyFileSystem: "\(error.path) is on a read-only file system"
        default: error.description
        }
    }
}
