import Foundation
import SystemIO

/// A child process the bench started through SystemIO's `ChildSpawn` (`posix_spawn`), the one
/// way the bench starts a program: Foundation's `Process.run()` crashes now and then on Linux,
/// and its `waitUntilExit` noticed an exit up to 50 ms late. Its end is seen the moment
/// `waitpid` reaps it.
final class SpawnedChild {
    /// Where one of the child's standard descriptors goes.
    enum Stream {
        /// `/dev/null`.
        case null
        /// A pipe to or from this process (`input`, `output` or `errors`).
        case pipe
        /// An open file of this process.
        case file(FileHandle)
    }

    /// The child's process ID.
    let pid: Int32
    /// The writing end of the child's standard input, when it is a pipe.
    let input: FileHandle?
    /// The reading end of the child's standard output, when it is a pipe.
    let output: FileHandle?
    /// The reading end of the child's standard error, when it is a pipe.
    let errors: FileHandle?
    private var status: Int32?

    /// Starts `executable` (a path; `SpawnedChild.onPath` finds a name on `PATH`).
    /// - Parameters:
    ///   - environment: the child's whole environment; nil passes this process's on.
    ///   - currentDirectory: its working directory; nil keeps this process's.
    /// - Throws: `SystemCallError` when a pipe cannot be made or the child cannot start.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: URL? = nil, input: Stream = .null, output: Stream = .null, errors: Stream = .null
    ) throws {
        // The child's ends of pipes are closed here once it holds its copies.
        var childsEnds: [Int32] = []
        defer { for end in childsEnds { close(end) } }
        var ours: [FileHandle?] = []
        var streams: [ChildSpawn.Stream] = []
        for (slot, stream) in [input, output, errors].enumerated() {
            switch stream {
            case .null:
                streams.append(.null)
                ours.append(nil)
            case .file(let handle):
                streams.append(.descriptor(handle.fileDescriptor))
                ours.append(nil)
            case .pipe:
                let pipe = try ChildSpawn.pipe()
                let (childs, mine) = slot == 0 ? (pipe.read, pipe.write) : (pipe.write, pipe.read)
                childsEnds.append(childs)
                streams.append(.descriptor(childs))
                ours.append(FileHandle(fileDescriptor: mine, closeOnDealloc: true))
            }
        }
        pid = try ChildSpawn.start(
            executable, arguments: arguments, environment: environment ?? ProcessInfo.processInfo.environment,
            currentDirectory: currentDirectory?.path, standardInput: streams[0], standardOutput: streams[1],
            standardError: streams[2])
        (self.input, self.output, self.errors) = (ours[0], ours[1], ours[2])
    }

    /// Starts the program `name` found on `PATH` (through `/usr/bin/env`, as a shell would).
    static func onPath(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil, input: Stream = .null,
        output: Stream = .null, errors: Stream = .null
    ) throws -> SpawnedChild {
        try SpawnedChild(
            "/usr/bin/env", [name] + arguments, environment: environment, input: input, output: output, errors: errors)
    }

    /// Waits until the child has ended, and reaps it (again: the same answer).
    /// - Returns: its exit status, or 128 plus the signal that ended it, as a shell says.
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        let ended: Int32 =
            switch ChildSpawn.wait(for: pid) {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        status = ended
        return ended
    }

    /// Sends SIGTERM unless the child has been reaped (its ID may be another process's by then).
    func terminate() {
        if status == nil { kill(pid, SIGTERM) }
    }

    /// Everything the child writes to `handle` (its output or errors) until it closes it.
    static func readToEnd(_ handle: FileHandle?) -> Data {
        var data = Data()
        guard let handle else { return data }
        while let chunk = try? PipeReader.read(descriptor: handle.fileDescriptor), !chunk.isEmpty {
            data.append(contentsOf: chunk)
        }
        return data
    }
}
