"""Never lost: a kill -9 loop during a stream of events. `storefront buy` processes die at the
store's fault points (before and after the charge is journaled with its notification, before
the app finishes) and `storefront serve` dies at random moments: right after it starts, and in
the middle of a POST (before the receiver answers, or after it answered but before the attempt
is journaled). At the end every notification in the journal has reached the receiver, each
charge has exactly one, and no event reached it under a second UUID."""
import os
import random
import signal
import subprocess
import threading
import unittest

from appstoreserverlibrary.models.Environment import Environment

from notification_receiver import Storefront, verifier_for
from storefront import BINARY, CATALOG

COINS = "com.storefront.demo.coins.100"
KILLS = int(os.environ.get("NOTIFICATION_KILLS", "200"))


class KillingReceiver:
    """Verifies each POST (Apple's verifier, offline) and, as `decide` says, answers it, kills
    the sender before answering, or answers and then kills it."""

    def __init__(self, verifier, decide):
        import http.server
        self.verifier = verifier
        self.decide = decide
        self.kill = lambda: None
        self.uuids = {}
        self.deliveries = 0
        self.failures = []
        self.changed = threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                if len(body) < length:
                    # The sender was killed in the middle of its request: nothing arrived to
                    # judge or answer (what it did not deliver is still owed, checked below).
                    return
                receiver.accept(self, body)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notifications"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def accept(self, handler, body):
        import json
        try:
            decoded = self.verifier.verify_and_decode_notification(json.loads(body)["signedPayload"])
            transaction = self.verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
        except Exception as error:
            with self.changed:
                self.failures.append(repr(error))
                self.changed.notify_all()
            handler.send_response(400)
            handler.end_headers()
            return
        choice = self.decide()
        if choice == "kill-before-answer":
            self.kill()
            return
        with self.changed:
            self.deliveries += 1
            self.uuids.setdefault(decoded.notificationUUID, transaction.transactionId)
            self.changed.notify_all()
        try:
            handler.send_response(200)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
        except OSError:
            pass
        if choice == "kill-after-answer":
            self.kill()

    def wait_for(self, uuids, timeout=180):
        with self.changed:
            self.changed.wait_for(lambda: set(uuids) <= set(self.uuids) or self.failures, timeout)
            return dict(self.uuids)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Server:
    """One `storefront serve` process over the store; its output drained on a thread."""

    def __init__(self, store):
        self.process = subprocess.Popen(
            [BINARY, "--catalog", CATALOG, "serve", "--port", "0"], env=store.environment(), cwd=store.home,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.url = self.process.stdout.readline().strip()
        self.drain = threading.Thread(target=self.process.stdout.read, daemon=True)
        self.drain.start()

    def alive(self):
        return self.process.poll() is None

    def kill(self):
        try:
            self.process.send_signal(signal.SIGKILL)
        except ProcessLookupError:
            pass

    def wait(self):
        self.process.wait(timeout=60)
        self.drain.join(timeout=60)
        self.process.stdout.close()


def every_notification(store):
    """Every notification the store made, oldest first: `store notifications` prints the
    newest page, so the older pages are read through the `--before` cursor of each."""
    found, before = [], None
    while True:
        page = store.json("store", "notifications", *([] if before is None else ["--before", str(before)]))
        found = page + found
        if not page or page[0]["position"] == 0:
            return found
        before = page[0]["position"]


class NotificationKillLoopTests(unittest.TestCase):
    def test_every_notification_arrives_once_named_through_kill_9(self):
        rng = random.Random(int(os.environ.get("NOTIFICATION_KILL_SEED", "15")))
        store = Storefront()
        self.addCleanup(store.close)
        store.run("store", "set", "latency", "0")
        # What is tested is kill -9, not slow receivers: on a loaded machine Apple's verifier can
        # take seconds, and a TIMED_OUT attempt would wait an hour (store clock) for its retry.
        store.run("store", "set", "notification-timeout", "120000")
        # Kills mid-POST leave the attempt unrecorded: it is due again at once, whatever the schedule.
        mutex = threading.Lock()
        server = {"current": None}
        counts = {"serve": 0, "buy": 0}

        def decide():
            roll = rng.random()
            return "kill-before-answer" if roll < 0.2 else "kill-after-answer" if roll < 0.35 else "answer"

        receiver = KillingReceiver(verifier_for(store, Environment.SANDBOX, online=False), decide)
        self.addCleanup(receiver.close)

        def kill_server():
            with mutex:
                current = server["current"]
                if current is not None and current.alive():
                    current.kill()
                    counts["serve"] += 1

        receiver.kill = kill_server
        store.run("store", "set", "notification-url", receiver.url)
        points = ["before-charge", "after-charge", "before-finish"]
        while counts["serve"] + counts["buy"] < KILLS:
            with mutex:
                current = server["current"]
            if current is None or not current.alive():
                if current is not None:
                    current.wait()
                started = Server(store)
                with mutex:
                    server["current"] = started
                if rng.random() < 0.15:
                    kill_server()
            environment = store.environment()
            if rng.random() < 0.6:
                environment["STOREFRONT_FAULT"] = rng.choice(points)
            done = subprocess.run([BINARY, "--catalog", CATALOG, "buy", COINS], env=environment, cwd=store.home,
                                  capture_output=True, text=True, timeout=120)
            if done.returncode == -signal.SIGKILL:
                counts["buy"] += 1
            else:
                self.assertEqual(done.returncode, 0, done.stderr)

        # A last server, never killed, sends whatever is left.
        receiver.decide = lambda: "answer"
        with mutex:
            current = server["current"]
        if current is not None:
            current.kill()
            current.wait()
        store.run("history")  # delivers what killed buyers left unfinished (adopts and settles)
        final = Server(store)
        self.addCleanup(final.kill)
        journal = every_notification(store)
        received = receiver.wait_for([n["notificationUUID"] for n in journal])
        self.assertEqual(receiver.failures, [])

        charges = [t["transactionID"] for t in store.json("store", "charges")]
        by_transaction = {}
        for n in journal:
            by_transaction.setdefault(n["transactionID"], []).append(n["notificationUUID"])
        self.assertEqual(sorted(by_transaction), sorted(charges), "one notification per charge, none for anything else")
        self.assertTrue(all(len(uuids) == 1 for uuids in by_transaction.values()), "no event notified twice")
        missing = [(n["notificationUUID"], n["sendAttempts"], n["nextAttemptDate"]) for n in journal
                   if n["notificationUUID"] not in received]
        self.assertEqual(missing, [], "every notification in the journal reached the receiver")
        self.assertEqual(set(received), {n["notificationUUID"] for n in journal}, "no UUID the journal does not have")
        self.assertEqual(sorted(received.values()), sorted(charges), "every charge reached the receiver under its one UUID")
        kills = counts["serve"] + counts["buy"]
        self.assertGreaterEqual(kills, KILLS)
        print(f"\nnotification kill loop: {kills} kill -9 ({counts['serve']} serve, {counts['buy']} buy), "
              f"{len(charges)} charges, {len(received)} notifications received once each by UUID, "
              f"{receiver.deliveries} deliveries (repeats are resends after a kill)")
        final.kill()
        final.wait()


if __name__ == "__main__":
    unittest.main()
