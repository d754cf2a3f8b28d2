#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a program with `posix_spawn` and reaps it with `waitpid`: the package's own way to
/// run a child process, for the tests and the bench.
///
/// Foundation's `Process.run()` on Linux reads `/proc/self/fd` by copying each directory entry
/// whole, past the end of glibc's buffer, and crashes now and then when the next page is not
/// mapped (swift-corelibs-foundation, fixed after the toolchain this package builds with). This
/// starts a child the way `Process` does — in a process group of its own, with every descriptor
/// but the three standard ones closed — without that walk: the kernel's `closefrom` does it.
package enum ChildSpawn {
    /// How a child ended.
    package enum Termination: Sendable, Equatable {
        /// It returned or called `exit` with this status.
        case exited(Int32)
        /// This signal ended it.
        case signaled(Int32)
    }

    /// What one of the child's standard descriptors is.
    package enum Stream: Sendable {
        /// `/dev/null`, for reading (standard input) or writing (the others).
        case null
        /// A duplicate of this descriptor of the parent.
        case descriptor(Int32)
    }

    /// Starts `executable` (a path, not searched on `PATH`) with `arguments` after its name.
    /// - Parameters:
    ///   - environment: the child's whole environment.
    ///   - currentDirectory: its working directory; nil keeps the parent's.
    /// - Returns: the child's process ID, for `wait(for:)`.
    /// - Throws: `SystemCallError` naming `posix_spawn` and the executable when it cannot start.
    package static func start(
        _ executable: String, arguments: [String], environment: [String: String], currentDirectory: String? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null
    ) throws(SystemCallError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (slot, stream) in [standardInput, standardOutput, standardError].enumerated() {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, Int32(slot), "/dev/null", slot == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(slot))
            }
        }
        if let currentDirectory {
            guard let addChdir = GNUSpawnActions.addChdir else {
                throw SystemCallError(
                    "posix_spawn_file_actions_addchdir_np", path: currentDirectory, errno: Errno(rawValue: ENOSYS))
            }
            _ = currentDirectory.withCString { addChdir(&actions, $0) }
        }
        _ = GNUSpawnActions.addClosefrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = CStrings([executable] + arguments)
        let envp = CStrings(environment.map { "\($0.key)=\($0.value)" })
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
        guard result == 0 else {
            throw SystemCallError("posix_spawn", path: executable, errno: Errno(rawValue: result))
        }
        return pid
    }

    /// Blocks until the child `pid` ends, and reaps it.
    package static func wait(for pid: Int32) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .exited(-1) }
        }
        // The macros WIFEXITED, WEXITSTATUS and WTERMSIG, which Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// A new pipe, both ends closed on `exec`: only the descriptors a spawn duplicates reach a child.
    /// - Throws: `SystemCallError` naming `pipe`.
    package static func pipe() throws(SystemCallError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try Syscall.retrying("pipe", path: "") { systemPipe(&ends) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}

/// glibc's GNU extensions to `posix_spawn`'s file actions, which its headers declare only with
/// `_GNU_SOURCE`: looked up once by name, nil where the C library has none.
private enum GNUSpawnActions {
    typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) ->
        Int32
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let addClosefrom: AddClosefrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}

/// C strings for `argv` and `envp`, freed when the value goes.
private final class CStrings {
    let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    deinit {
        for pointer in pointers { free(pointer) }
    }
}

/// libc's `pipe`, named apart from `ChildSpawn.pipe`.
private func systemPipe(_ ends: inout [Int32]) -> Int32 {
    pipe(&ends)
}
