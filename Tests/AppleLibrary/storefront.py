"""Drives the real `storefront` binary for the suites that judge it with Apple's library.

The binary is $STOREFRONT_BIN (else .build/debug/storefront), the catalog the Demo catalog,
and every store lives in its own temporary data directory.
"""
import base64
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("STOREFRONT_BIN", os.path.join(ROOT, ".build", "debug", "storefront"))
CATALOG = os.path.join(ROOT, "Catalogs", "Demo.storekit")

PLUS = "com.storefront.demo.premium.plus.monthly"
PRO = "com.storefront.demo.premium.pro.monthly"
COINS = "com.storefront.demo.coins.100"
REMOVE_ADS = "com.storefront.demo.removeads"


class Store:
    """One local App Store in a temporary data directory, driven through the CLI."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="storefront-apple-library-")
        self.run("store", "set", "latency", "0")

    def remove(self):
        shutil.rmtree(self.directory, ignore_errors=True)

    def run(self, *arguments, json_output=False, check=True):
        command = [BINARY, "--data-dir", self.directory, "--catalog", CATALOG] + list(arguments)
        if json_output:
            command.append("--json")
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(arguments)} exited {done.returncode}: {done.stderr}{done.stdout}")
        return json.loads(done.stdout) if json_output else done.stdout

    def buy(self, product):
        """Buys `product` and returns its transaction ID."""
        result = self.run("buy", product, json_output=True)
        assert result["state"] == "purchased", result
        return result["transactionID"]

    def signed(self):
        """Every signed item the store gives now (`storefront signed --json`)."""
        return self.run("signed", json_output=True)

    def root(self):
        with open(self.signed()["rootCertificate"], "rb") as file:
            return file.read()


class OCSPEndpoint:
    """An HTTP endpoint on 127.0.0.1 that answers OCSP POSTs with the store's responder
    (`storefront signed ocsp FILE`), standing in for `storefront serve`'s /ocsp."""

    def __init__(self, store):
        self.store = store
        self.requests = 0
        endpoint = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with tempfile.NamedTemporaryFile(dir=endpoint.store.directory, delete=False) as request:
                    request.write(body)
                try:
                    answer = base64.b64decode(endpoint.store.run("signed", "ocsp", request.name))
                finally:
                    os.unlink(request.name)
                endpoint.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/ocsp-response")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
