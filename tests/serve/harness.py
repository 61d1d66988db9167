"""A real ``readermode serve`` process on 127.0.0.1 for the tests, and a fixture server.

The server is started as the console command would be (``python -m renderer.cli serve``) with
``--port 0``; the test reads the port from its ``listening on`` line and then polls
``/healthz`` until it answers: readiness is an event, never a sleep. Every Chromium it starts
carries ``READERMODE_TEST_TAG``, so a test can find (and kill) exactly its server's browser.
"""

from __future__ import annotations

import http.client
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.browser.conftest import SpaHandler
from tests.conftest import REPO
from tests.held import HeldResponse

START_S = 120.0
"""Backstop for a server to start (Chromium on a loaded 2-core machine once took 30 s)."""
REQUEST_S = 120.0
"""Backstop for one request: far past any budget the tests give."""
STORY = (
    "<html><head><title>Held story</title></head><body><article><h1>Held story</h1>"
    + "<p>A paragraph of the held story with enough words in it to count as the article.</p>" * 4
    + "</article></body></html>"
)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    @property
    def error(self) -> dict[str, Any]:
        """The JSON error of a failed request (and that it is one, not a traceback)."""
        data = self.json()
        assert set(data) == {"error"}, data
        assert set(data["error"]) == {"kind", "message", "exit_code"}, data
        assert "Traceback" not in data["error"]["message"]
        return dict(data["error"])


@dataclass
class ServeProcess:
    """One running ``readermode serve``."""

    process: subprocess.Popen[bytes]
    port: int
    tag: str
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        body: bytes | dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = REQUEST_S,
    ) -> Answer:
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=data, headers=headers or {})
            response = connection.getresponse()
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                          response.read())
        finally:
            connection.close()

    def get(self, path: str, **headers: str) -> Answer:
        return self.request("GET", path, headers={k.replace("_", "-"): v for k, v in headers.items()})

    def post(self, path: str, body: bytes | dict[str, Any], **headers: str) -> Answer:
        return self.request("POST", path, body, {k.replace("_", "-"): v for k, v in headers.items()})

    def metric(self, name: str, headers: dict[str, str] | None = None) -> float:
        """The sum of a metric's samples (0 when it has none yet)."""
        text = self.request("GET", "/metrics", headers=headers).text
        values = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                  if line.startswith(name) and (line[len(name)] in " {")]
        return sum(values)

    def stop(self) -> int:
        """SIGTERM, then wait for the drain and the exit; the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(START_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def wait_for(condition: Any, what: str, seconds: float = START_S) -> Any:
    """Poll ``condition`` until it is truthy; ``seconds`` is a backstop, not a timing."""
    end = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def start_serve(tmp: Path, *args: str, env: dict[str, str] | None = None,
                launcher: list[str] | None = None) -> ServeProcess:
    """``readermode serve --port 0 ARGS``, ready (``/healthz`` answered 200)."""
    tag = uuid.uuid4().hex
    log = tmp / f"serve-{tag[:8]}.log"
    command = launcher or [sys.executable, "-m", "renderer.cli"]
    process = subprocess.Popen(
        [*command, "serve", "--port", "0", *args],
        cwd=REPO,
        env={**os.environ, "READERMODE_TEST_TAG": tag, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )

    def port() -> int | None:
        if process.poll() is not None:
            raise AssertionError(f"readermode serve exited: {log.read_text()}")
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", log.read_text())
        return int(found.group(1)) if found else None

    server = ServeProcess(process, wait_for(port, "the listening line"), tag, log)

    def healthy() -> bool:
        try:
            return server.get("/healthz").status == 200
        except OSError:
            return False

    wait_for(healthy, "/healthz")
    return server


class FixtureHandler(SpaHandler):
    """fixtures/spa, plus /held/* (answers once the test releases it) and /redirect?to=URL."""

    server: FixtureServer

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/held/"):
            if self.server.held.hold():
                self._send(200, STORY.encode())
            return
        if self.path.startswith("/redirect?to="):
            self.send_response(302)
            self.send_header("Location", self.path.split("=", 1)[1])
            self.end_headers()
            return
        super().do_GET()

    def _send(self, status: int, body: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # the renderer gave up on it first: nothing to answer


class FixtureServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str = "127.0.0.1") -> None:
        super().__init__((host, 0), FixtureHandler)
        self.held = HeldResponse()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self.held.release()
        self.shutdown()
        self.server_close()


@dataclass
class Background:
    """A request sent on a thread; ``answer()`` waits for it."""

    thread: threading.Thread
    result: list[Answer | BaseException] = field(default_factory=list)

    def answer(self, seconds: float = REQUEST_S) -> Answer:
        self.thread.join(seconds)
        assert self.result, "the request did not finish"
        value = self.result[0]
        if isinstance(value, BaseException):
            raise value
        return value


def in_background(server: ServeProcess, method: str, path: str, **kwargs: Any) -> Background:
    background = Background(threading.Thread(daemon=True, target=lambda: None))

    def run() -> None:
        try:
            background.result.append(server.request(method, path, **kwargs))
        except BaseException as exc:  # handed to the test by answer()
            background.result.append(exc)

    background.thread = threading.Thread(target=run, daemon=True)
    background.thread.start()
    return background
