"""A developer's Get Retention Message endpoint (Python's `http.server`) that verifies every
request with Apple's `SignedDataVerifier.verify_and_decode_realtime_request` and answers what
the test says, and PNG files made byte by byte for Upload Image."""
import http.server
import json
import struct
import threading
import time
import zlib

from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.RealtimeRequestBody import RealtimeRequestBody
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody


class RealtimeEndpoint:
    """Receives `RealtimeRequestBody` POSTs, verifies and decodes each (`requests` keeps the
    decoded bodies, `failures` what Apple's verifier refused) and answers `answer`: a
    `RealtimeResponseBody`, or a function of the decoded request returning (status, bytes).
    `hold` (a threading.Event) keeps every answer back until it is set."""

    def __init__(self, verifier, answer=None):
        self.verifier = verifier
        self.answer = answer
        self.hold = None
        self.requests = []
        self.failures = []
        self.changed = threading.Condition()
        endpoint = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status, answer = endpoint.accept(body)
                if endpoint.hold is not None:
                    endpoint.hold.wait(60)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the store stopped waiting (its timeout): what a late answer meets

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/retention"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def accept(self, body):
        try:
            request = _get_cattrs_converter(RealtimeRequestBody).structure(json.loads(body), RealtimeRequestBody)
            decoded = self.verifier.verify_and_decode_realtime_request(request.signedPayload)
        except Exception as error:  # kept and reported by the test: a request Apple's code refuses
            with self.changed:
                self.failures.append(repr(error))
                self.changed.notify_all()
            return 400, b"{}"
        with self.changed:
            self.requests.append(decoded)
            self.changed.notify_all()
        if callable(self.answer):
            return self.answer(decoded)
        body = self.answer or RealtimeResponseBody()
        return 200, json.dumps(_get_cattrs_converter(RealtimeResponseBody).unstructure(body)).encode()

    def wait_for(self, count, timeout=60):
        """Waits (bounded, woken by each request) until `count` requests arrived."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.requests) >= count or self.failures, timeout)
            return list(self.requests)

    def close(self):
        if self.hold is not None:
            self.hold.set()
        self.server.shutdown()
        self.server.server_close()


def png(width, height, color_type=2, extra_chunks=()):
    """A PNG of `width`×`height` black pixels: truecolour (2) by default, 4 or 6 with alpha."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    rows = b"".join(b"\x00" + bytes(width * channels) for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    chunks = [chunk(b"IHDR", header)]
    if color_type == 3:
        chunks.append(chunk(b"PLTE", bytes(3)))
    chunks += [chunk(kind, data) for kind, data in extra_chunks]
    chunks += [chunk(b"IDAT", zlib.compress(rows)), chunk(b"IEND", b"")]
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


def until(condition, timeout=60):
    """Calls `condition` until it returns something true, for at most `timeout` seconds, and
    returns that: for an answer the server makes when its own work ends (no sleep between tries)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
