"""The server guide's "Testing your server" walkthrough (Docs/server.md), run as written: its shell
lines through the built binary (in a fresh data directory whose `server-url` names a free port, so
its `serve` listens there as it would on 8490), then its Python block against that server, with
the guide's URL (the default `server-url`) replaced by the server's."""
import contextlib
import io
import os
import re
import unittest

from storefront import ROOT, Store, free_port

DEFAULT_URL = "http://127.0.0.1:8490"


def walkthrough():
    text = (ROOT / "Docs" / "server.md").read_text()
    section = text.split("## Testing your server", 1)[1].split("\n## ", 1)[0]
    shell = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    python = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    return [line.split("  #")[0].strip() for line in shell.splitlines() if line.strip()], python


class ServerGuideWalkthroughTests(unittest.TestCase):
    def test_the_guide_commands_run_as_written(self):
        lines, python = walkthrough()
        self.assertIn("storefront serve &", lines, "the guide starts the server on its default port")
        self.assertIn(DEFAULT_URL, python)
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
            printed = io.StringIO()
            cwd = os.getcwd()
            os.chdir(store.directory)
            try:
                with contextlib.redirect_stdout(printed):
                    exec(compile(python.replace(DEFAULT_URL, url), "Docs/server.md", "exec"), namespace)
            finally:
                os.chdir(cwd)
            self.assertGreaterEqual(len(namespace["history"].signedTransactions), 1)
            self.assertEqual(printed.getvalue().split(), ["False", "1", "1", "com.storefront.demo.premium.plus.monthly"])
            status, output, _ = store.stop()
            self.assertEqual(status, 0)
            self.assertRegex(output, r"GET /inApps/v2/history/2000000000000001 200 [0-9.]+ms")
            self.assertRegex(output, r"POST /ocsp 200 [0-9.]+ms", "the verifier's online checks reached the server")
        finally:
            store.remove()


if __name__ == "__main__":
    unittest.main()
