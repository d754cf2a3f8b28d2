import Foundation
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1 (python3) serving a directory with byte ranges, which
/// `python3 -m http.server` does not support. It logs each request's path and `Range` header
/// for `/__log`, answers HTTP 500 to the request numbered `--fail-request N` (1-based, files
/// only); `PythonServer` serves it.
final class RangeServer {
    static let script = #"""
        import json, os, re, sys, threading
        from http.server import BaseHTTPRequestHandler

        root = sys.argv[1]
        fail_at = int(sys.argv[2]) if len(sys.argv) > 2 else 0
        log = []
        count = [0]
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args):
                pass

            def send(self, code, body, headers=()):
                self.send_response(code)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path == "/__log":
                    with lock:
                        self.send(200, json.dumps(log).encode(), [("Content-Type", "application/json")])
                    return
                rng = self.headers.get("Range")
                with lock:
                    log.append({"path": self.path, "range": rng})
                    count[0] += 1
                    number = count[0]
                path = os.path.realpath(os.path.join(root, self.path.lstrip("/")))
                if not path.startswith(os.path.realpath(root)) or not os.path.isfile(path):
                    self.send(404, b"not found")
                    return
                if fail_at and number == fail_at:
                    self.send(500, b"simulated failure")
                    return
                size = os.path.getsize(path)
                with open(path, "rb") as f:
                    if rng is None:
                        self.send(200, f.read())
                        return
                    m = re.fullmatch(r"bytes=(\d+)-(\d*)", rng)
                    if not m:
                        self.send(416, b"bad range", [("Content-Range", "bytes */%d" % size)])
                        return
                    start = int(m.group(1))
                    end = int(m.group(2)) if m.group(2) else size - 1
                    end = min(end, size - 1)
                    if start >= size or start > end:
                        self.send(416, b"bad range", [("Content-Range", "bytes */%d" % size)])
                        return
                    f.seek(start)
                    self.send(206, f.read(end - start + 1), [("Content-Range", "bytes %d-%d/%d" % (start, end, size))])
        """#

    private let server: PythonServer
    let root: URL

    /// Serves `root`; the request numbered `failRequest` (counting file requests from 1) gets HTTP 500.
    init(root: URL, failRequest: Int = 0) throws {
        self.root = root
        server = try PythonServer(script: Self.script, arguments: [root.path, String(failRequest)])
    }

    func url(_ path: String) -> URL { server.url(path) }

    /// The requests received: path and `Range` header.
    func requests() async throws -> [(path: String, range: String?)] {
        let (data, _) = try await URLSession.shared.data(from: url("__log"))
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.map { ($0["path"] as? String ?? "", $0["range"] as? String) }
    }

    /// Kills the server (SIGKILL); the value going away does too.
    func stop() { server.stop() }
}
