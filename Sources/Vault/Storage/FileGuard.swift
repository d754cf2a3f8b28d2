import SystemIO

/// Opens and creates the vault's files safely: never through a symbolic link, only files
/// this user owns and nobody else can read, created 0600 (directories 0700) whatever the umask.
struct FileGuard {
    let fs: any FileSystem
    /// Existing files are opened for reading only (a vault opened read-only).
    var readOnly = false

    /// Makes sure `directory` exists (created 0700, parents too) and is safe to keep secrets in.
    func ensureDirectory(_ directory: String) throws(VaultError) {
        let status: FileStatus?
        do { status = try fs.status(atPath: directory, followingLinks: false) } catch { throw io(directory, error) }
        guard let status else {
            let parent = Self.parent(of: directory)
            if parent != directory { try ensureDirectory(parent, strict: false) }
            try makeDirectory(directory)
            return try ensureDirectory(directory)
        }
        try check(directory, status, directory: true)
    }

    private func ensureDirectory(_ directory: String, strict: Bool) throws(VaultError) {
        let status: FileStatus?
        do { status = try fs.status(atPath: directory, followingLinks: false) } catch { throw io(directory, error) }
        if status != nil { return }
        let parent = Self.parent(of: directory)
        if parent != directory { try ensureDirectory(parent, strict: false) }
        try makeDirectory(directory)
    }

    /// `mkdir` 0700, then `chmod` so the umask cannot widen it; another creator is no error.
    private func makeDirectory(_ directory: String) throws(VaultError) {
        do {
            try fs.makeDirectory(directory, mode: 0o700)
            try fs.setPermissions(atPath: directory, to: 0o700)
        } catch {
            if error.errno != .fileExists { throw io(directory, error) }
        }
    }

    /// Opens an existing file read-write (read-only when `readOnly`), refusing links, foreign
    /// owners and open modes.
    func openExisting(_ path: String) throws(VaultError) -> OpenFile {
        let file: OpenFile
        do { file = try fs.open(path, [readOnly ? .read : .readWrite, .noFollow], mode: 0) } catch {
            throw refusal(path, error)
        }
        return try checked(file, path)
    }

    /// Opens `path` creating it if needed (mode 0600), then checks it like `openExisting`.
    func openOrCreate(_ path: String) throws(VaultError) -> OpenFile {
        let file: OpenFile
        do { file = try fs.open(path, [.readWrite, .create, .noFollow], mode: 0o600) } catch {
            throw refusal(path, error)
        }
        return try checked(file, path, narrowingFresh: true)
    }

    /// Creates (or empties) a private temporary file for a write-then-rename.
    func createTemporary(_ path: String) throws(VaultError) -> OpenFile {
        let file: OpenFile
        do { file = try fs.openReplacement(path, mode: 0o600) } catch {
            throw error.operation == "open" ? refusal(path, error) : io(path, error)
        }
        return try checked(file, path)
    }

    /// Returns `file` once it passes `check` as a regular file; closes it and throws otherwise.
    /// With `narrowingFresh`, a file of ours that is empty and open to others (just created under
    /// a permissive umask) is narrowed to 0600 first, before anything is written.
    private func checked(_ file: OpenFile, _ path: String, narrowingFresh: Bool = false) throws(VaultError) -> OpenFile
    {
        do throws(VaultError) {
            if narrowingFresh {
                let st = try status(file)
                if st.owner == fs.currentUser(), st.mode & 0o077 != 0, st.size == 0 {
                    do { try fs.setPermissions(of: file, to: 0o600) } catch { throw io(path, error) }
                }
            }
            try check(path, try status(file), directory: false)
        } catch {
            fs.close(file)
            throw error
        }
        return file
    }

    func status(_ file: OpenFile) throws(VaultError) -> FileStatus {
        do { return try fs.status(of: file) } catch { throw io(file.path, error) }
    }

    private func check(_ path: String, _ status: FileStatus, directory: Bool) throws(VaultError) {
        if status.isSymbolicLink { throw .symbolicLink(path: path) }
        guard status.owner == fs.currentUser() else { throw .wrongOwner(path: path, owner: status.owner) }
        if directory {
            guard status.isDirectory else {
                throw .io(path: path, operation: "open directory", errno: Errno.notADirectory.rawValue)
            }
            guard status.mode & 0o022 == 0 else {
                throw .insecurePermissions(path: path, mode: status.mode, fix: "chmod 700 \(path)")
            }
        } else {
            guard status.mode & 0o077 == 0 else {
                throw .insecurePermissions(path: path, mode: status.mode, fix: "chmod 600 \(path)")
            }
        }
    }

    /// An `open` refused: a symbolic link (`O_NOFOLLOW` says `ELOOP`), or another error.
    private func refusal(_ path: String, _ error: SystemCallError) -> VaultError {
        error.errno == .symbolicLink ? .symbolicLink(path: path) : io(path, error)
    }

    private func io(_ path: String, _ error: SystemCallError) -> VaultError {
        .io(path: path, operation: error.operation, errno: error.code)
    }

    static func parent(of path: String) -> String { FilePaths.parent(of: path) }
}
