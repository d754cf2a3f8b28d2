"""The README's "Testing your server" walkthrough, run as written: its shell lines through the
built binary (in a fresh data directory), then its Python block against the server it started."""
import contextlib
import io
import os
import re
import unittest

from storefront_harness import ROOT, Storefront


def walkthrough():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Testing your server", 1)[1].split("\n## ", 1)[0]
    shell = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    python = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    return [line.split("  #")[0].strip() for line in shell.splitlines() if line.strip()], python


class ReadmeWalkthroughTests(unittest.TestCase):
    def test_the_readme_commands_run_as_written(self):
        lines, python = walkthrough()
        self.assertTrue(any(line.endswith("&") and " serve " in line for line in lines), "the README starts the server")
        store = Storefront()
        try:
            for line in lines:
                if line.endswith("&"):
                    self.assertIn("--port 8080", line)
                    store.serve()
                else:
                    store.shell(line)
            self.assertIn("http://127.0.0.1:8080", python)
            code = python.replace("http://127.0.0.1:8080", store.url)
            namespace = {}
            printed = io.StringIO()
            cwd = os.getcwd()
            os.chdir(store.home)
            try:
                with contextlib.redirect_stdout(printed):
                    exec(compile(code, "README.md", "exec"), namespace)
            finally:
                os.chdir(cwd)
            self.assertGreaterEqual(len(namespace["history"].signedTransactions), 1)
            self.assertEqual(printed.getvalue().split(), ["False", "1", "1"])
            status, output, _ = store.stop()
            self.assertEqual(status, 0)
            self.assertRegex(output, r"GET /inApps/v2/history/2000000000000001 200 [0-9.]+ms")
        finally:
            store.close()


if __name__ == "__main__":
    unittest.main()
