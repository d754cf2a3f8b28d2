import Foundation
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1 speaking Apple's verifyReceipt protocol, run with python3.
/// The receipt-data (base64 of a short text) picks the scenario:
///   `ok:ID`            status 0 on both endpoints, the receipt lists transaction ID
///   `sandbox:ID`       production answers 21007, the sandbox 0
///   `production:ID`    the sandbox answers 21008, production 0
///   `status:N`         status N on both endpoints
///   `otherbundle:ID`   status 0, but for bundle com.example.other
///   `garbage` / `nostatus` / `http500` / `hang`   broken answers (hang: no answer for 30 s)
/// It logs every request for `/log`; `PythonServer` serves it.
final class VerifyReceiptServer {
    static let script = #"""
        import base64, json, time
        from http.server import BaseHTTPRequestHandler

        log = []
        BUNDLE = "com.example.storefront"

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, code, body, content_type="application/json"):
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self.path == "/log":
                    self.reply(200, log)
                else:
                    self.reply(404, {"error": "not found"})

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                try:
                    request = json.loads(raw)
                    scenario = base64.b64decode(request["receipt-data"]).decode()
                except Exception as error:
                    self.reply(200, {"status": 21002})
                    return
                log.append({"path": self.path, "body": request})
                kind, _, argument = scenario.partition(":")
                sandbox = self.path == "/sandbox"
                ok = lambda bundle=BUNDLE: {"status": 0, "environment": "Sandbox" if sandbox else "Production",
                                            "receipt": {"bundle_id": bundle, "application_version": "1",
                                                        "in_app": [{"transaction_id": argument, "product_id": "p",
                                                                    "original_transaction_id": argument}]}}
                if kind == "ok":
                    self.reply(200, ok())
                elif kind == "sandbox":
                    self.reply(200, ok() if sandbox else {"status": 21007})
                elif kind == "production":
                    self.reply(200, {"status": 21008} if sandbox else ok())
                elif kind == "status":
                    self.reply(200, {"status": int(argument)})
                elif kind == "otherbundle":
                    self.reply(200, ok("com.example.other"))
                elif kind == "garbage":
                    self.reply(200, b"<html>Service Unavailable</html>", "text/html")
                elif kind == "nostatus":
                    self.reply(200, {"receipt": {}})
                elif kind == "http500":
                    self.reply(500, {"status": 0})
                elif kind == "hang":
                    time.sleep(30)
                    self.reply(200, ok())
                else:
                    self.reply(200, {"status": 21002})
        """#

    private let server: PythonServer

    init() throws {
        server = try PythonServer(script: Self.script)
    }

    var productionURL: URL { server.url("production") }
    var sandboxURL: URL { server.url("sandbox") }

    /// The requests the server received: path and JSON body.
    func requests() async throws -> [(path: String, body: [String: Any])] {
        let (data, _) = try await URLSession.shared.data(from: server.url("log"))
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.map { ($0["path"] as? String ?? "", $0["body"] as? [String: Any] ?? [:]) }
    }

    /// Kills the server (SIGKILL); the value going away does too.
    func stop() { server.stop() }
}
