import Foundation
import TestSupport

/// A TCP client that sends a request one byte at a time, when told to, then waits for the
/// server to close the connection: a python3 child (the tests' raw-socket tool), driven line by
/// line over its standard input so no test sleeps.
final class SlowClient: @unchecked Sendable {
    private let child: ChildProcess
    /// How many of the child's lines `command` has returned (only the test's task calls it).
    private var linesRead = 0

    static let script = """
        import socket, sys
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        request = b"GET /inApps/v1/transactions/1 HTTP/1.1\\r\\nHost: x\\r\\n"
        print("connected", flush=True)
        sent = 0
        for line in sys.stdin:
            if line.strip() == "byte":
                try:
                    s.sendall(request[sent:sent + 1]); sent += 1
                    print("sent", flush=True)
                except OSError:
                    print("closed early", flush=True)
                    break
            elif line.strip() == "wait":
                try:
                    data = s.recv(65536)
                    while data:
                        data = s.recv(65536)
                    print("closed", flush=True)
                except ConnectionResetError:
                    print("closed", flush=True)
                break
        """

    init(port: UInt16) throws {
        // A child that is gone must fail the test, not kill the test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        child = try ChildProcess(.tool("python3"), ["-c", Self.script, String(port)], tiedToThisProcess: true)
    }

    /// Sends a command line and returns the child's answer line.
    func command(_ line: String?) async -> String {
        if let line {
            guard child.isRunning else { return "exited" }
            try? child.send(line + "\n")
        }
        let wanted = linesRead + 1
        linesRead = wanted
        // The wait blocks: on a thread of its own, not the test's cooperative pool.
        let output = await withCheckedContinuation { continuation in
            Thread.detachNewThread { [child] in
                continuation.resume(returning: child.waitForStandardOutput { $0.count { $0 == "\n" } >= wanted } ?? "")
            }
        }
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return wanted <= lines.count ? String(lines[wanted - 1]) : ""
    }

    func finish() {
        child.kill()
        _ = child.wait()
    }
}
