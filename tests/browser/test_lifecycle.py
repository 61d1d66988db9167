"""Browser lifecycle and errors: one browser for many pages, clean shutdown, bounded waits."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator

import pytest

from extractor import BudgetExceededError, FetchError, HTTPStatusError
from renderer import Renderer, RenderOptions
from tests.browser.conftest import chromium_tagged, tagged_roots, wait_until_gone
from tests.held import HeldResponse

pytestmark = pytest.mark.browser

STORY = (
    "<html><head><title>Plain</title></head><body><article><h1>Plain story</h1>"
    + "<p>A plain server-rendered paragraph with enough words to count as the article body.</p>" * 4
    + "</article></body></html>"
)
# The main thread never yields again once the page has loaded: evaluate() cannot return.
FROZEN = "<html><body><p>Frozen page text that is here before the loop starts.</p><script>addEventListener('load', () => { while (true) {} });</script></body></html>"


HANG_S = 120.0
"""A capture that takes this long is hung, not slow: a backstop, never what a pass depends on."""


class LifecycleServer(http.server.ThreadingHTTPServer):
    """The module's server; ``held`` holds /slow until the test releases it."""

    daemon_threads = True
    held: HeldResponse


class Handler(http.server.BaseHTTPRequestHandler):
    server: LifecycleServer

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/slow" and not self.server.held.hold():
            return  # the safety backstop ran out: answer nothing
        body, status = {
            "/story": (STORY, 200),
            "/frozen": (FROZEN, 200),
            "/slow": (STORY, 200),
        }.get(self.path, ("<h1>Not found</h1>", 404))
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


@pytest.fixture(scope="module")
def lifecycle_server() -> Iterator[LifecycleServer]:
    httpd = LifecycleServer(("127.0.0.1", 0), Handler)
    httpd.held = HeldResponse()
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd
    httpd.held.release()
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def server(lifecycle_server: LifecycleServer) -> str:
    return f"http://127.0.0.1:{lifecycle_server.server_address[1]}"


def test_one_browser_many_pages_then_nothing_left(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One browser process for the renderer, the same one before and after each of three pages.

    The looks are taken around the test's own events (launch, each page), not a timer: a
    process that lives for a moment cannot be in all of them, a relaunch per page empties
    their intersection, and a second lasting browser makes it two."""
    tag = uuid.uuid4().hex
    monkeypatch.setenv("READERMODE_TEST_TAG", tag)  # inherited by the Chromium we start
    with Renderer(RenderOptions(block_private=False)) as renderer:
        looks = [tagged_roots(tag, os.getpid())]
        assert looks[0], "the tag finds our Chromium (so the checks below can fail)"
        for _ in range(3):
            assert "plain server-rendered paragraph" in renderer.capture(f"{server}/story").text
            looks.append(tagged_roots(tag, os.getpid()))
        assert len(set.intersection(*looks)) == 1, f"one lasting browser: {looks}"
    assert wait_until_gone(lambda: chromium_tagged(tag)), "the renderer's browser outlived close()"


@pytest.mark.parametrize(
    ("path", "error"),
    [("/missing", HTTPStatusError)],
)
def test_http_errors(server: str, renderer: Renderer, path: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        renderer.render(f"{server}{path}")


def test_refused_connection_is_a_fetch_error(renderer: Renderer) -> None:
    with pytest.raises(FetchError):
        renderer.render("http://127.0.0.1:9/")


def test_slow_server_spends_the_budget_not_more(
    lifecycle_server: LifecycleServer, server: str, renderer: Renderer
) -> None:
    """/slow answers only when the test releases it, which it does after the render: the
    BudgetExceededError can only come from the 2 s budget, however busy the machine."""
    lifecycle_server.held = held = HeldResponse()
    try:
        started = time.monotonic()
        with pytest.raises(BudgetExceededError, match="2 s budget"):
            renderer.render(f"{server}/slow", options=RenderOptions(block_private=False, budget=2.0))
        assert time.monotonic() - started < HANG_S  # backstop only
        assert held.arrived.is_set(), "the request reached the server: its answer was cut"
    finally:
        held.release()


def test_frozen_main_thread_cannot_hold_the_capture(server: str, renderer: Renderer) -> None:
    """The frozen page's loop never ends: any return at all is the budget's doing, and what
    it returns is a snapshot taken before the freeze or the document as served."""
    started = time.monotonic()
    try:
        snapshot = renderer.render(f"{server}/frozen", options=RenderOptions(block_private=False, budget=4.0))
    except BudgetExceededError:
        snapshot = None
    assert time.monotonic() - started < HANG_S  # backstop only
    if snapshot is not None:
        assert snapshot.settled_by in ("budget", "served") and snapshot.warnings
    # The same browser still serves the next page.
    assert "plain server-rendered paragraph" in renderer.capture(f"{server}/story").text


def test_cli_renders_urls_by_default_and_leaves_no_browser(server: str) -> None:
    tag = uuid.uuid4().hex
    result = subprocess.run(
        [sys.executable, "-m", "renderer.cli", f"{server}/story", "-f", "json", "--timeout", "60"],
        env={**os.environ, "READERMODE_TEST_TAG": tag},
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["stage"] == "readability-js" and "plain server-rendered" in data["text"]
    static = subprocess.run(
        [sys.executable, "-m", "renderer.cli", f"{server}/story", "--no-render", "-f", "json"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert json.loads(static.stdout)["stage"] == "readability-lxml"
    # The CLI's Chromium inherited the tag: once the CLI has exited, none may be left.
    assert wait_until_gone(lambda: chromium_tagged(tag)), "the CLI left a Chromium running"


def test_cli_render_errors_are_one_line(server: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "renderer.cli", f"{server}/missing"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == HTTPStatusError.exit_code
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
