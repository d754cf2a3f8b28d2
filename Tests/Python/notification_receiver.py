"""A webhook receiver for App Store Server Notifications V2 (Python's `http.server`) that
verifies every notification with Apple's `SignedDataVerifier.verify_and_decode_notification`
(online checks on), and an OCSP endpoint answering for the store's certificates."""
import base64
import http.server
import json
import os
import subprocess
import tempfile
import threading

from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

from storefront import BINARY, CATALOG, Store


class NotificationReceiver:
    """Receives POSTs of `{"signedPayload": ...}`, verifies each with `verifier`, keeps the
    decoded notifications in arrival order (`received`, `by_uuid`) and answers 200, or what
    `plan` (a list of statuses, consumed per POST) says."""

    def __init__(self, verifier, plan=None):
        self.verifier = verifier
        self.plan = list(plan or [])
        self.received = []
        self.failures = []
        self.posts = 0
        self.changed = threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status = receiver.accept(body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notifications"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def accept(self, body):
        with self.changed:
            self.posts += 1
            status = self.plan.pop(0) if self.plan else 200
        try:
            payload = json.loads(body)["signedPayload"]
            decoded = self.verifier.verify_and_decode_notification(payload)
            if decoded.data is not None and decoded.data.signedTransactionInfo is not None:
                decoded.transaction = self.verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
            if decoded.data is not None and decoded.data.signedRenewalInfo is not None:
                decoded.renewal = self.verifier.verify_and_decode_renewal_info(decoded.data.signedRenewalInfo)
        except Exception as error:  # kept and reported by the test: a notification Apple's code refuses
            with self.changed:
                self.failures.append(repr(error))
                self.changed.notify_all()
            return 400
        with self.changed:
            if status == 200 and decoded.notificationUUID not in self.by_uuid():
                self.received.append(decoded)
            self.changed.notify_all()
        return status

    def by_uuid(self):
        return {n.notificationUUID: n for n in self.received}

    def sequence(self):
        return [kind(n) for n in self.received]

    def wait_for(self, count, timeout=60):
        """Waits (bounded, woken by each POST) until `count` distinct notifications arrived."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.received) >= count or self.failures, timeout)
            return list(self.received)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def kind(notification):
    """`TYPE` or `TYPE/SUBTYPE`, as Apple's tables pair them."""
    name = notification.rawNotificationType
    return f"{name}/{notification.rawSubtype}" if notification.rawSubtype else name


class OCSPEndpoint:
    """Answers OCSP POSTs with the store's responder (`storefront signed ocsp FILE`), for the
    verifier's online checks at the certificates' `server-url`/ocsp."""

    def __init__(self, store):
        endpoint = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with tempfile.NamedTemporaryFile(dir=store.home, delete=False) as request:
                    request.write(body)
                try:
                    answer = base64.b64decode(store.run("signed", "ocsp", request.name).stdout)
                finally:
                    os.unlink(request.name)
                self.send_response(200)
                self.send_header("Content-Type", "application/ocsp-response")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def verifier_for(store, environment, app_apple_id=None, online=True):
    """Apple's verifier for the store's root, bundle and `environment`, online checks on
    unless `online` is false."""
    signed = store.json("signed")
    with open(signed["rootCertificate"], "rb") as root:
        return SignedDataVerifier([root.read()], online, environment, signed["bundleId"], app_apple_id)


class Storefront(Store):
    """The suite's `Store`, with what the notification tests use: `home`, `run` returning the
    finished process, `json`, and `close`."""

    def __init__(self):
        super().__init__(latency_zero=False)

    @property
    def home(self):
        return self.directory

    def run(self, *arguments, json_output=False, check=True):
        if json_output:
            return super().run(*arguments, json_output=True, check=check)
        command = [BINARY, "--catalog", CATALOG, *arguments]
        done = subprocess.run(command, env=self.environment(), cwd=self.directory, capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)
        if check and done.returncode != 0:
            raise AssertionError(f"storefront {' '.join(arguments)} exited {done.returncode}: {done.stderr}{done.stdout}")
        return done

    def json(self, *arguments):
        return super().run(*arguments, json_output=True)

    def close(self):
        self.remove()
