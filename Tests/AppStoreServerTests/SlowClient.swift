import Foundation

/// A TCP client that sends a request one byte at a time, when told to, then waits for the
/// server to close the connection: a python3 child (the tests' raw-socket tool), driven line by
/// line over its standard input so no test sleeps.
final class SlowClient: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

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
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, String(port)]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Sends a command line and returns the child's answer line.
    func command(_ line: String?) async -> String {
        if let line {
            guard process.isRunning else { return "exited" }
            try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        }
        let handle = output.fileHandleForReading
        return await withCheckedContinuation { continuation in
            Thread {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.readData(ofLength: 1)
                    guard let byte = chunk.first, byte != UInt8(ascii: "\n") else { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }.start()
        }
    }

    func finish() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
