import Foundation

/// Runs a tool as a child process and collects what it printed, without blocking a thread of
/// the cooperative pool while it runs (builds take minutes; the pool has two threads here).
enum ChildProcess {
    /// How a child ended and what it printed.
    struct Result: Sendable {
        /// The exit status (the signal number when `signaled`).
        let status: Int32
        /// Whether a signal ended it.
        let signaled: Bool
        /// Standard output.
        let stdout: String
        /// Standard error.
        let stderr: String
    }

    /// A child that did not do what was asked, with what it said.
    struct Failure: Error, CustomStringConvertible {
        /// What failed and why.
        let description: String

        init(_ description: String) { self.description = description }

        init(_ what: String, _ result: Result) {
            description = "\(what) exited with \(result.signaled ? "signal " : "status ")\(result.status)\n"
                + result.stdout.suffix(6000) + result.stderr.suffix(6000)
        }
    }

    /// Runs `executable` with `arguments` in `directory` to completion. Output goes to files
    /// (a pipe left unread would stall a chatty child), read once it exited.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil) async throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("PackagingTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil)
        else { throw Failure("cannot create output files in \(scratch.path)") }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            ended.continuation.yield()
            ended.continuation.finish()
        }
        try process.run()
        for await _ in ended.stream {}
        return Result(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}
