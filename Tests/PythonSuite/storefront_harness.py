"""Runs the built `storefront` binary for the Python suite: CLI commands and `serve`."""
import base64
import json
import os
import pathlib
import shlex
import signal
import subprocess
import tempfile

from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("STOREFRONT_BIN", str(ROOT / ".build/debug/storefront"))
CATALOG = str(ROOT / "Catalogs/Demo.storekit")


class Storefront:
    """One data directory, driven through the CLI; `serve()` starts the server over it."""

    def __init__(self):
        self.directory = tempfile.TemporaryDirectory(prefix="storefront-python-")
        self.home = self.directory.name
        self.server = None
        self.url = None

    def environment(self):
        env = dict(os.environ)
        env["STOREFRONT_HOME"] = self.home
        env.pop("STOREFRONT_FAULT", None)
        return env

    def command_line(self, text):
        """A README line (`storefront ...`) with the built binary and the Demo catalog."""
        assert text.startswith("storefront "), text
        return shlex.quote(BINARY) + " --catalog " + shlex.quote(CATALOG) + text[len("storefront"):]

    def run(self, *arguments, check=True):
        result = subprocess.run(
            [BINARY, "--catalog", CATALOG, *arguments], env=self.environment(), cwd=self.home,
            capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0:
            raise AssertionError(f"storefront {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
        return result

    def json(self, *arguments):
        return json.loads(self.run(*arguments, "--json").stdout)

    def shell(self, line):
        """Runs one README shell line in the data directory's folder."""
        result = subprocess.run(self.command_line(line), shell=True, env=self.environment(), cwd=self.home,
                                capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise AssertionError(f"{line} exited {result.returncode}: {result.stderr}")
        return result

    def serve(self, *arguments):
        self.server = subprocess.Popen(
            [BINARY, "--catalog", CATALOG, "serve", "--port", "0", *arguments], env=self.environment(), cwd=self.home,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.server.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), f"serve printed {self.url!r}: {self.server.stderr.read()}"
        return self.url

    def stop(self):
        """SIGINT, as Ctrl-C: the server must stop cleanly with status 0."""
        if self.server is None:
            return None
        self.server.send_signal(signal.SIGINT)
        output, errors = self.server.communicate(timeout=60)
        status = self.server.returncode
        self.server = None
        return status, output, errors

    def client(self):
        credentials = self.json("credentials")
        with open(credentials["privateKeyPath"], "rb") as key:
            client = AppStoreServerAPIClient(key.read(), credentials["keyID"], credentials["issuerID"],
                                             credentials["bundleID"], Environment.SANDBOX)
        client._base_url = self.url
        return client

    def close(self):
        if self.server is not None:
            self.server.kill()
            self.server.wait()
        self.directory.cleanup()


def decode(jws, model):
    """A JWS payload structured into one of Apple's models, as the library's verifier does it."""
    part = jws.split(".")[1]
    payload = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    return _get_cattrs_converter(model).structure(payload, model)
