import Foundation
import SystemIO

/// A file the user named on the command line (a receipt, a signed transaction, a root
/// certificate, an OCSP request), read whole. It is the one way commands read such files, so
/// every message names the file by its absolute path and says what is wrong with it: missing,
/// a directory, not a regular file, unreadable (the system's reason), or, once read, its
/// content (`problem(_:)`).
struct CommandLineFile {
    /// What the command expects the file to be, e.g. "root certificate".
    let what: String
    /// The file's absolute path.
    let path: String
    /// The file's bytes.
    let contents: Data

    /// Reads the file at `path` (relative paths resolve against the working directory, `~`
    /// against `$HOME`).
    /// - Parameters:
    ///   - path: the path as the user gave it.
    ///   - context: the working directory and environment.
    ///   - what: what the file should be, for messages ("receipt", "root certificate").
    ///   - fileSystem: where to read it.
    /// - Throws: `CLIError.runtime` "cannot read WHAT PATH: PROBLEM".
    static func read(
        _ path: String, context: CommandContext, what: String, fileSystem: any FileSystem = POSIXFileSystem()
    ) throws(CLIError) -> CommandLineFile {
        let absolute = Paths.absolute(path, relativeTo: context.currentDirectory, home: context.environment["HOME"])
        func failure(_ problem: String) -> CLIError { .runtime("cannot read \(what) \(absolute): \(problem)") }
        let status: FileStatus?
        do {
            status = try fileSystem.status(atPath: absolute, followingLinks: true)
        } catch {
            throw failure(error.errno.description)
        }
        guard let status else { throw failure("no such file") }
        guard !status.isDirectory else { throw failure("is a directory, expected a file") }
        // Devices and pipes (`/dev/zero`, a FIFO) might never end: only regular files are read.
        guard status.isRegularFile else { throw failure("is not a regular file") }
        do {
            return CommandLineFile(
                what: what, path: absolute, contents: Data(try readAll(absolute, fileSystem: fileSystem)))
        } catch {
            throw failure(error.errno.description)
        }
    }

    /// The bytes of the regular file at `path`, to its end.
    private static func readAll(_ path: String, fileSystem: any FileSystem) throws(SystemCallError) -> [UInt8] {
        let file = try fileSystem.open(path, .read)
        defer { fileSystem.close(file) }
        return try fileSystem.readToEnd(file, from: 0)
    }

    /// An error about what the file holds: "WHAT PATH PROBLEM", e.g. "root certificate /x is
    /// not a DER or PEM certificate: …".
    func problem(_ problem: String) -> CLIError { .runtime("\(what) \(path) \(problem)") }
}
