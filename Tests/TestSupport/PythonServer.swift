import Foundation

/// A small HTTP server written in python3 for a test, listening on 127.0.0.1.
///
/// The script must print the port it listens on as its first line of standard output (and,
/// so that a killed test leaves nothing behind for long, should exit by itself after a while).
/// `stop()`, or the value going away, kills it with SIGKILL and removes its script.
public final class PythonServer: @unchecked Sendable {
    /// What can go wrong starting a server.
    public enum Failure: Error, CustomStringConvertible {
        /// The script ended, or printed something else, before printing its port.
        case noPort(output: String)

        /// Says what the script printed instead of its port.
        public var description: String {
            switch self {
            case .noPort(let output): "the python server printed no port; its output:\n\(output)"
            }
        }
    }

    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    private let child: ChildProcess
    private let directory: TemporaryDirectory

    /// Writes `script` to a temporary directory, runs it with `python3 SCRIPT arguments…`,
    /// and waits (bounded) for the port on its first line.
    /// - Throws: `Failure.noPort` when the script ends or prints something else first, or the
    ///   error that kept python from starting.
    public init(script: String, arguments: [String] = []) throws {
        directory = try TemporaryDirectory(prefix: "python-server")
        let scriptURL = directory.url("server.py")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        child = try ChildProcess(tool: "python3", [scriptURL.path] + arguments, standardError: .discard)
        let firstLine = child.waitForStandardOutput { $0.contains("\n") }
        guard let firstLine, let port = Int(firstLine.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)) else {
            child.kill()
            throw Failure.noPort(output: child.wait().output)
        }
        self.port = port
    }

    deinit { stop() }

    /// The URL of `path` on this server (`path` without its leading slash).
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Kills the server with SIGKILL and waits for its end. Safe to call more than once.
    public func stop() {
        child.kill()
        _ = child.wait()
    }
}
