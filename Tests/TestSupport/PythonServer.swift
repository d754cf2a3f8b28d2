import Foundation

/// A small HTTP server written in python3 for a test, listening on a free port of 127.0.0.1.
///
/// The test's script defines the request handler, a class named `Handler` (a
/// `http.server.BaseHTTPRequestHandler`); this type appends what serves it: a threading
/// server on 127.0.0.1 that prints its port on its first line and exits when its standard
/// input ends, which happens when this process dies, so a killed test run leaves nothing
/// running and a slow one never outlives its server. `stop()`, or the
/// value going away, kills it with SIGKILL and removes the script.
public final class PythonServer: @unchecked Sendable {
    /// What this type appends to the test's script: serves `Handler`, says the port, and ends
    /// when standard input does (the test process is gone).
    static let main: String =
        """

        # Appended by PythonServer: serve Handler on 127.0.0.1, print the port, exit with the test.
        import os as _os, sys as _sys, threading as _threading
        from http.server import ThreadingHTTPServer as _Server
        _server = _Server(("127.0.0.1", 0), Handler)
        _server.daemon_threads = True
        def _watch_parent():
            _sys.stdin.buffer.read()
            _os._exit(0)
        _threading.Thread(target=_watch_parent, daemon=True).start()
        print(_server.server_address[1], flush=True)
        _server.serve_forever()

        """

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

    /// Writes `script` and the serving code to a temporary directory, runs them with
    /// `python3 SCRIPT arguments…` (the script sees `arguments` in `sys.argv[1...]`), and waits
    /// (bounded) for the port.
    /// - Throws: `Failure.noPort` when the script ends or prints something else first, or the
    ///   error that kept python from starting.
    public init(script: String, arguments: [String] = []) throws {
        directory = try TemporaryDirectory(prefix: "python-server")
        let scriptURL = directory.url("server.py")
        try (script + Self.main).write(to: scriptURL, atomically: true, encoding: .utf8)
        child = try ChildProcess(
            .tool("python3"), [scriptURL.path] + arguments, standardError: .discard, tiedToThisProcess: true)
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
