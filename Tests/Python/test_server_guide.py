"""The README's "Testing your server" walkthrough, run as written: its first shell block through
the built binary (in a fresh data directory whose `server-url` names a free port, so its `serve`
listens there as it would on 8490), then its Python block against that server, with the README's
URL (the default `server-url`) and the endpoint's port (8491) replaced by free ones; then its last
shell block, the customer's cancel that asks the endpoint, and the log of it."""
import contextlib
import io
import os
import re
import unittest

from storefront import ROOT, Store, free_port

DEFAULT_URL = "http://127.0.0.1:8490"
ENDPOINT_PORT = "8491"


def walkthrough():
    """The README's "Testing your server" blocks: each shell block's lines (comments dropped), and
    the Python block."""
    text = (ROOT / "README.md").read_text()
    section = text.split("### Testing your server", 1)[1].split("\n## ", 1)[0]
    shells = [[line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]
              for block in re.findall(r"```sh\n(.*?)```", section, re.S)]
    python = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(shells) == 2 and len(python) == 1, "the walkthrough is a shell block, Python, a shell block"
    return shells[0], python[0], shells[1]


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
                exec(compile(python, "README.md", "exec"), namespace)
        finally:
            os.chdir(cwd)
        return printed.getvalue()

    def test_the_guide_commands_run_as_written(self):
        lines, python, customer = walkthrough()
        self.assertIn("storefront serve &", lines, "the guide starts the server on its default port")
        store = Store(latency_zero=False)
        try:
            url = f"http://127.0.0.1:{free_port()}"
            store.run("store", "set", "server-url", url)
            # A generous realtime timeout, so that a loaded machine does not make the endpoint late.
            store.run("store", "set", "realtime-timeout", "30000")
            for line in lines:
                if line.endswith("&"):
                    self.assertEqual(store.serve_line(line), url, "serve listens on server-url's port")
                else:
                    store.shell(line)
            namespace = {}
            port = str(free_port())
            printed = self.run_python(store, python, namespace, [(DEFAULT_URL, url),
                                                                 (f":{ENDPOINT_PORT}/", f":{port}/"),
                                                                 (f", {ENDPOINT_PORT})", f", {port})")])
            self.addCleanup(namespace["endpoint"].server_close)
            self.addCleanup(namespace["endpoint"].shutdown)
            self.assertEqual(len(namespace["history"].signedTransactions), 1)
            self.assertEqual(printed.split(), ["com.storefront.demo.premium.plus.monthly"])

            cancelled = store.shell(customer[0]).stdout
            self.assertIn("Stay a while\nEvery level stays unlocked.\n", cancelled)
            self.assertIn("Cancelled subscription 2000000000000001: auto-renew is off", cancelled)
            logged = store.shell(customer[1]).stdout
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
