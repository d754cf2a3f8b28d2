/// Path-level operations made of `FileSystem` requirements only.
extension FileSystem {
    /// Opens `path` with `options`, creating files with mode 0600.
    public func open(_ path: String, _ options: OpenOptions) throws(SystemCallError) -> OpenFile {
        try open(path, options, mode: 0o600)
    }

    /// Whether anything (a link included, not followed) is at `path`.
    public func exists(_ path: String) -> Bool {
        (try? status(atPath: path, followingLinks: false)) != nil
    }

    /// The size of the regular file at `path` (links followed); `nil` when there is none.
    public func regularFileSize(atPath path: String) -> UInt64? {
        guard let status = try? status(atPath: path, followingLinks: true), status.isRegularFile else { return nil }
        return status.size
    }

    /// Creates `path` and its missing parents with `mode`; succeeds when it is a directory
    /// already (links followed).
    /// - Parameter enforcingMode: when this call creates `path`, also `chmod` it to `mode`, so
    ///   the umask cannot leave it other than asked. A directory that exists keeps the
    ///   permissions its owner gave it: they are the user's, never changed behind their back.
    /// - Throws: `ENOTDIR` naming the first component that exists but is not a directory.
    public func createDirectories(
        _ path: String, mode: UInt32 = 0o700, enforcingMode: Bool = false
    ) throws(SystemCallError) {
        let created = try createMissingDirectories(path, mode: mode)
        if enforcingMode, created { try setPermissions(atPath: path, to: mode) }
    }

    /// Creates what is missing of `path`; returns whether `path` itself was made by this call.
    @discardableResult
    private func createMissingDirectories(_ path: String, mode: UInt32) throws(SystemCallError) -> Bool {
        let existing: FileStatus?
        do {
            existing = try status(atPath: path, followingLinks: true)
        } catch {
            // A component above is a file: the check below names it.
            guard error.errno == .notADirectory else { throw error }
            existing = nil
        }
        if let existing {
            if existing.isDirectory { return false }
            throw SystemCallError("mkdir", path: path, errno: .notADirectory)
        }
        let parent = FilePaths.parent(of: path)
        if parent != path, parent != "." { try createMissingDirectories(parent, mode: mode) }
        do {
            try makeDirectory(path, mode: mode)
            return true
        } catch {
            // Another process made it first.
            guard error.errno == .fileExists else { throw error }
            return false
        }
    }

    /// Removes a file, or a directory with everything in it; succeeds when nothing is there.
    /// Links are removed, never followed.
    public func removeTree(_ path: String) throws(SystemCallError) {
        guard let status = try status(atPath: path, followingLinks: false) else { return }
        if status.isDirectory {
            for name in try contentsOfDirectory(path) { try removeTree(path + "/" + name) }
            do { try removeDirectory(path) } catch { if error.errno != .noSuchFile { throw error } }
        } else {
            do { try removeFile(path) } catch { if error.errno != .noSuchFile { throw error } }
        }
    }

    /// Reads the whole file at `path` (links followed); `nil` when it does not exist.
    /// - Parameter limit: the largest size accepted; a larger file fails with `EFBIG`.
    public func readFile(_ path: String, limit: UInt64 = 64 << 20) throws(SystemCallError) -> [UInt8]? {
        let file: OpenFile
        do {
            file = try open(path, .read)
        } catch {
            if error.errno == .noSuchFile { return nil }
            throw error
        }
        defer { close(file) }
        let size = try status(of: file).size
        guard size <= limit else { throw SystemCallError("read", path: path, errno: .fileTooLarge) }
        return try read(file, count: Int(size), at: 0)
    }

    /// `read(_:count:at:)` copied into `buffer`: what a wrapper without its own gets.
    public func read(
        _ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
    ) throws(SystemCallError) -> Int {
        let bytes = try read(file, count: buffer.count, at: offset)
        buffer.copyBytes(from: bytes)
        return bytes.count
    }

    /// Reads from `offset` to the end of the file, however long it has become.
    public func readToEnd(_ file: OpenFile, from offset: UInt64) throws(SystemCallError) -> [UInt8] {
        var result: [UInt8] = []
        var position = offset
        let block = 1 << 16
        while true {
            let chunk = try read(file, count: block, at: position)
            result.append(contentsOf: chunk)
            position += UInt64(chunk.count)
            if chunk.count < block { return result }
        }
    }

    /// Writes all of `bytes` at `offset`.
    public func write(_ file: OpenFile, _ bytes: [UInt8], at offset: UInt64) throws(SystemCallError) {
        try write(file, bytes[...], at: offset)
    }

    /// Writes all of `bytes` at the file's position.
    public func write(_ file: OpenFile, _ bytes: [UInt8]) throws(SystemCallError) {
        try write(file, bytes[...])
    }
}
