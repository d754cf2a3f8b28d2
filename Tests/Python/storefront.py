"""The one harness of the Python suite: drives the real `storefront` binary (CLI commands and
`serve`) for the tests that judge it with Apple's `app-store-server-library`.

The binary is $STOREFRONT_BIN (else .build/debug/storefront), the catalog the Demo catalog,
and every store lives in its own temporary data directory ($STOREFRONT_HOME, so the guides' lines
without --data-dir use it too), which is also the working directory of what it runs.
"""
import base64
import json
import os
import pathlib
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile

from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("STOREFRONT_BIN", str(ROOT / ".build" / "debug" / "storefront"))
CATALOG = str(ROOT / "Catalogs" / "Demo.storekit")

PLUS = "com.storefront.demo.premium.plus.monthly"
PRO = "com.storefront.demo.premium.pro.monthly"
PRO_YEARLY = "com.storefront.demo.premium.pro.yearly"
BASIC = "com.storefront.demo.premium.basic.monthly"
COINS = "com.storefront.demo.coins.100"
REMOVE_ADS = "com.storefront.demo.removeads"


def free_port():
    """A port the kernel just gave out and took back (free unless someone takes it meanwhile)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Store:
    """One local App Store in a temporary data directory, driven through the CLI; `serve()`
    runs `storefront serve` over it."""

    def __init__(self, latency_zero=True):
        self.directory = tempfile.mkdtemp(prefix="storefront-python-")
        self.server = None
        self.url = None
        if latency_zero:
            self.run("store", "set", "latency", "0")

    # MARK: CLI

    def environment(self):
        env = dict(os.environ)
        env["STOREFRONT_HOME"] = self.directory
        env.pop("STOREFRONT_FAULT", None)
        return env

    def run(self, *arguments, json_output=False, check=True):
        """`storefront ARGUMENTS` (with --json when `json_output`): its parsed JSON, or its output."""
        command = [BINARY, "--catalog", CATALOG, *arguments] + (["--json"] if json_output else [])
        done = subprocess.run(command, env=self.environment(), cwd=self.directory, capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)
        if check and done.returncode != 0:
            raise AssertionError(f"storefront {' '.join(arguments)} exited {done.returncode}: {done.stderr}{done.stdout}")
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

    def command_line(self, text):
        """A guide's line (`storefront ...`) with the built binary and the Demo catalog."""
        assert text.startswith("storefront "), text
        return shlex.quote(BINARY) + " --catalog " + shlex.quote(CATALOG) + text[len("storefront"):]

    def shell(self, line):
        """Runs one shell line of a guide in the data directory."""
        done = subprocess.run(self.command_line(line), shell=True, env=self.environment(), cwd=self.directory,
                              capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise AssertionError(f"{line} exited {done.returncode}: {done.stderr}")
        return done

    # MARK: The server

    def serve(self, *arguments):
        """Starts `storefront serve ARGUMENTS` (any free port unless they say) and returns its URL."""
        if "--port" not in arguments:
            arguments = ("--port", "0", *arguments)
        return self.start_server([BINARY, "--catalog", CATALOG, "serve", *arguments])

    def serve_line(self, line):
        """Starts a guide's line that runs `storefront serve ... &`, as written, and returns its URL."""
        assert line.endswith("&") and line.startswith("storefront serve"), line
        return self.start_server(shlex.split(self.command_line(line[:-1].strip())))

    def start_server(self, command):
        self.server = subprocess.Popen(command, env=self.environment(), cwd=self.directory, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        self.url = self.server.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), f"serve printed {self.url!r}: {self.server.stderr.read()}"
        return self.url

    def stop(self):
        """SIGINT, as Ctrl-C: returns (status, output, errors); the server must stop cleanly."""
        if self.server is None:
            return None
        self.server.send_signal(signal.SIGINT)
        output, errors = self.server.communicate(timeout=60)
        status = self.server.returncode
        self.server = None
        return status, output, errors

    def client(self, environment=Environment.SANDBOX):
        """Apple's `AppStoreServerAPIClient` with the store's credentials, pointed at the server."""
        credentials = self.run("credentials", json_output=True)
        with open(credentials["privateKeyPath"], "rb") as key:
            client = AppStoreServerAPIClient(key.read(), credentials["keyID"], credentials["issuerID"],
                                             credentials["bundleID"], environment)
        client._base_url = self.url
        return client

    def remove(self):
        if self.server is not None:
            self.server.kill()
            self.server.wait()
            self.server = None
        shutil.rmtree(self.directory, ignore_errors=True)


def decode(jws, model):
    """A JWS payload structured into one of Apple's models, as the library's verifier does it."""
    part = jws.split(".")[1]
    payload = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    return _get_cattrs_converter(model).structure(payload, model)
