"""Browser tests: the real server (gunicorn) and Debian's Chromium driven by Playwright.

- ``server``: gunicorn on 127.0.0.1 and a free port, over a temporary SQLite file, with a
  small ``WEREWOLF_TIME_SCALE`` (``E2E_TIME_SCALE`` overrides it), its log kept in the
  test's temporary folder and printed when the test fails.
- ``browser``: Chromium from ``E2E_CHROMIUM`` or /usr/bin/chromium; never a downloaded one.
  Without it the tests are skipped, unless ``CI`` is set or the user is root (then the
  README's test command installs it, and a missing browser is a failure).

Deselect them with ``-m "not e2e"``.
"""
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from contextlib import closing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("E2E_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIME_SCALE = os.environ.get("E2E_TIME_SCALE", "0.5")
SCREENSHOTS = Path(os.environ.get("E2E_SCREENSHOTS") or ROOT / "tests" / "e2e" / "screenshots")  # a folder to look at


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, tmp: Path, database: Path):
        """``database``: the migrated SQLite file the server starts from (a copy of it)."""
        self.database, self.db_file = database, tmp / "werewolf.db"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "server.log"
        self.env = {
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "WEB_CONCURRENCY": "2",
            # A stop ends the streams at once (gunicorn.conf.py), but a connection a test's browser
            # keeps alive idle would hold it for gunicorn.conf.py's 10 s: the test is over by then.
            "GUNICORN_CMD_ARGS": "--graceful-timeout 1",
            "WEREWOLF_INSTANCE_PATH": str(tmp / "instance"),
            "WEREWOLF_SQLALCHEMY_DATABASE_URI": f"sqlite:///{self.db_file}",
            "WEREWOLF_SECRET_KEY": "e2e-secret",
            "WEREWOLF_TIME_SCALE": TIME_SCALE,
            "WEREWOLF_PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",  # fast; production keeps scrypt
            "WEREWOLF_REGISTRATION_RATE_LIMIT": "100000 per minute",  # every phone registers from 127.0.0.1
        }
        self.process = None

    def create_tables(self):
        subprocess.run([str(Path(sys.executable).parent / "flask"), "--app", "app", "init-db"], cwd=ROOT,
                       check=True, env={**self.env, "WEREWOLF_SCHEDULER": "false"}, capture_output=True)

    def start(self):
        # The tables exist before two workers race to create them; a restart keeps the test's data.
        if not self.db_file.exists():
            with closing(sqlite3.connect(self.database)) as source, closing(sqlite3.connect(self.db_file)) as copy:
                source.backup(copy)
        self.log_file = open(self.log, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py", "app:app"],
            cwd=ROOT, env=self.env, stdout=self.log_file, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("gunicorn exited:\n" + self.log.read_text(errors="replace"))
            try:
                with urllib.request.urlopen(self.url + "/login", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer:\n" + self.log.read_text(errors="replace"))

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log_file.close()

    def errors(self) -> list[str]:
        """Tracebacks and 5xx answers in the server's log."""
        lines = self.log.read_text(errors="replace").splitlines()
        found = []
        for i, line in enumerate(lines):
            if re.search(r'HTTP/1\.[01]" 5\d\d ', line):
                found.append(line)
            elif "Traceback" in line:
                found.append("\n".join(lines[max(0, i - 2):i + 40]))
        return found


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory) -> Path:
    """One new database with every table, made once (``flask init-db``: ~1.4 s): each test's
    server starts from a copy of it."""
    database = tmp_path_factory.mktemp("migrated") / "werewolf.db"
    Server(database.parent, database).create_tables()  # its own file: it is never started
    return database


@pytest.fixture
def server(tmp_path, request, migrated_database):
    server = Server(tmp_path, migrated_database).start()
    yield server
    server.stop()
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        print("---- server log (tail) ----")
        print("\n".join(server.log.read_text(errors="replace").splitlines()[-80:]))
    assert not server.errors(), server.errors()


@pytest.fixture(scope="module")  # closed once the module's games are played
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") or os.geteuid() == 0:
            pytest.fail(f"chromium is missing at {CHROMIUM} (scripts/test installs Debian's package)")
        pytest.skip(f"chromium is missing at {CHROMIUM}")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def screenshots(request):
    folder = SCREENSHOTS / request.node.name.replace("[", "-").replace("]", "")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
