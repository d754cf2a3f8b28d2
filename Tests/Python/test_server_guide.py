"""The server guide's "Testing your server" walkthrough (Docs/server.md), run as written: its shell
lines through the built binary (in a fresh data directory whose `server-url` names a free port, so
its `serve` listens there as it would on 8490), then its Python block against that server, with
the guide's URL (the default `server-url`) replaced by the server's; then its Retention messaging
part: the Get Retention Message endpoint in Python (on a free port instead of 8491) and the
customer's cancel that asks it."""
import contextlib
import io
import os
import re
import unittest

from storefront import ROOT, Store, free_port

DEFAULT_URL = "http://127.0.0.1:8490"
ENDPOINT_PORT = "8491"


def blocks(section):
    """The first shell block's lines (comments dropped) and the first Python block of `section`."""
    shell = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    python = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    return [line.split("  #")[0].strip() for line in shell.splitlines() if line.strip()], python


def walkthrough(part=0):
    """The walkthrough's blocks (`part` 0), or its Retention messaging subsection's (1)."""
    text = (ROOT / "Docs" / "server.md").read_text()
    section = text.split("## Testing your server", 1)[1].split("\n## ", 1)[0]
    return blocks(section.split("### Retention messaging", 1)[part])


class ServerGuideWalkthroughTests(unittest.TestCase):
    def run_python(self, store, python, namespace, replacements):
        """Runs a block of the guide in the store's directory, each of `replacements` made (and
        checked to be there); returns what it printed."""
        for old, new in replacements:
            self.assertIn(old, python)
            python = python.replace(old, new)
        printed = io.StringIO()
        cwd = os.getcwd()
        os.chdir(store.directory)
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(python, "Docs/server.md", "exec"), namespace)
        finally:
            os.chdir(cwd)
        return printed.getvalue()

    def test_the_guide_commands_run_as_written(self):
        lines, python = walkthrough()
        self.assertIn("storefront serve &", lines, "the guide starts the server on its default port")
        store = Store(latency_zero=False)
        try:
            url = f"http://127.0.0.1:{free_port()}"
            store.run("store", "set", "server-url", url)
            for line in lines:
                if line.endswith("&"):
                    self.assertEqual(store.serve_line(line), url, "serve listens on server-url's port")
                else:
                    store.shell(line)
            namespace = {}
            printed = self.run_python(store, python, namespace, [(DEFAULT_URL, url)])
            self.assertGreaterEqual(len(namespace["history"].signedTransactions), 1)
            self.assertEqual(printed.split(), ["False", "1", "1", "com.storefront.demo.premium.plus.monthly"])

            # Retention messaging, as written (with a generous realtime timeout, so that a loaded
            # machine does not make the endpoint's answer late).
            store.run("store", "set", "realtime-timeout", "30000")
            retention_lines, retention_python = walkthrough(1)
            port = str(free_port())
            self.run_python(store, retention_python, namespace, [(f":{ENDPOINT_PORT}/", f":{port}/"),
                                                                 (f", {ENDPOINT_PORT})", f", {port})")])
            self.addCleanup(namespace["endpoint"].server_close)
            self.addCleanup(namespace["endpoint"].shutdown)
            cancelled = store.shell(retention_lines[0]).stdout
            self.assertIn("Stay a while\nEvery level stays unlocked.\n", cancelled)
            self.assertIn("Cancelled subscription 2000000000000001: auto-renew is off", cancelled)
            logged = store.shell(retention_lines[1]).stdout
            self.assertIn("2000000000000001 com.storefront.demo.premium.plus.monthly en-US: SUCCESS 200", logged)
            self.assertIn("showed message, chose cancel", logged)

            status, output, _ = store.stop()
            self.assertEqual(status, 0)
            self.assertRegex(output, r"GET /inApps/v2/history/2000000000000001 200 [0-9.]+ms")
            self.assertRegex(output, r"POST /ocsp 200 [0-9.]+ms", "the verifier's online checks reached the server")
            self.assertRegex(output, r"PUT /inApps/v1/messaging/realtime/url 200 [0-9.]+ms")
        finally:
            store.remove()


if __name__ == "__main__":
    unittest.main()
