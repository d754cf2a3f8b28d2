import Glibc

/// Opens and creates the vault's files safely: never through a symbolic link, only files
/// this user owns and nobody else can read, created 0600 (directories 0700) whatever the umask.
struct FileGuard {
    let fs: any VaultFileSystem

    /// Makes sure `directory` exists (created 0700, parents too) and is safe to keep secrets in.
    func ensureDirectory(_ directory: String) throws(VaultError) {
        let status: FileStatus?
        do { status = try fs.linkStatus(directory) } catch { throw io(directory, error) }
        guard let status else {
            let parent = Self.parent(of: directory)
            if parent != directory { try ensureDirectory(parent, strict: false) }
            do { try fs.makeDirectory(directory, mode: 0o700) } catch {
                if error.code != EEXIST { throw io(directory, error) }
            }
            return try ensureDirectory(directory)
        }
        try check(directory, status, directory: true)
    }

    private func ensureDirectory(_ directory: String, strict: Bool) throws(VaultError) {
        let status: FileStatus?
        do { status = try fs.linkStatus(directory) } catch { throw io(directory, error) }
        if status != nil { return }
        let parent = Self.parent(of: directory)
        if parent != directory { try ensureDirectory(parent, strict: false) }
        do { try fs.makeDirectory(directory, mode: 0o700) } catch {
            if error.code != EEXIST { throw io(directory, error) }
        }
    }

    /// Opens an existing file read-write, refusing links, foreign owners and open modes.
    func openExisting(_ path: String) throws(VaultError) -> Int32 {
        let fd: Int32
        do { fd = try fs.open(path, flags: O_RDWR, mode: 0) } catch {
            throw error.code == ELOOP ? .symbolicLink(path: path) : io(path, error)
        }
        do {
            try check(path, try status(fd, path), directory: false)
        } catch {
            fs.close(fd)
            throw error
        }
        return fd
    }

    /// Opens `path` creating it if needed (mode 0600), then checks it like `openExisting`.
    func openOrCreate(_ path: String) throws(VaultError) -> Int32 {
        let fd: Int32
        do { fd = try fs.open(path, flags: O_RDWR | O_CREAT, mode: 0o600) } catch {
            throw error.code == ELOOP ? .symbolicLink(path: path) : io(path, error)
        }
        do throws(VaultError) {
            let st = try status(fd, path)
            if st.owner == fs.currentUser(), st.mode & 0o077 != 0, st.size == 0 {
                // Freshly created under a permissive umask: narrow it before anything is written.
                do { try fs.setMode(fd, 0o600) } catch { throw io(path, error) }
            }
            try check(path, try status(fd, path), directory: false)
        } catch {
            fs.close(fd)
            throw error
        }
        return fd
    }

    /// Creates (or empties) a private temporary file for a write-then-rename.
    func createTemporary(_ path: String) throws(VaultError) -> Int32 {
        let fd: Int32
        do { fd = try fs.open(path, flags: O_RDWR | O_CREAT | O_TRUNC, mode: 0o600) } catch {
            throw error.code == ELOOP ? .symbolicLink(path: path) : io(path, error)
        }
        do throws(VaultError) {
            do { try fs.setMode(fd, 0o600) } catch { throw io(path, error) }
            try check(path, try status(fd, path), directory: false)
        } catch {
            fs.close(fd)
            throw error
        }
        return fd
    }

    func status(_ fd: Int32, _ path: String) throws(VaultError) -> FileStatus {
        do { return try fs.status(fd) } catch { throw io(path, error) }
    }

    private func check(_ path: String, _ status: FileStatus, directory: Bool) throws(VaultError) {
        if status.isSymbolicLink { throw .symbolicLink(path: path) }
        guard status.owner == fs.currentUser() else { throw .wrongOwner(path: path, owner: status.owner) }
        if directory {
            guard status.isDirectory else { throw .io(path: path, operation: "open directory", errno: ENOTDIR) }
            guard status.mode & 0o022 == 0 else {
                throw .insecurePermissions(path: path, mode: status.mode, fix: "chmod 700 \(path)")
            }
        } else {
            guard status.mode & 0o077 == 0 else {
                throw .insecurePermissions(path: path, mode: status.mode, fix: "chmod 600 \(path)")
            }
        }
    }

    private func io(_ path: String, _ error: SystemCallError) -> VaultError {
        .io(path: path, operation: error.operation, errno: error.code)
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }
}
