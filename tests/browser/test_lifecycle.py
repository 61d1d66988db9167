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
from collections.abc import Callable, Iterator

import pytest

from extractor import BudgetExceededError, FetchError, HTTPStatusError
from renderer import Renderer, RenderOptions
from tests.browser.conftest import chromium_roots, chromium_tagged

pytestmark = pytest.mark.browser

STORY = (
    "<html><head><title>Plain</title></head><body><article><h1>Plain story</h1>"
    + "<p>A plain server-rendered paragraph with enough words to count as the article body.</p>" * 4
    + "</article></body></html>"
)
# The main thread never yields again once the page has loaded: evaluate() cannot return.
FROZEN = "<html><body><p>Frozen page text that is here before the loop starts.</p><script>addEventListener('load', () => { while (true) {} });</script></body></html>"


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/slow":
            time.sleep(8)
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


def wait_until_gone(processes: Callable[[], set[int]], seconds: float = 10.0) -> bool:
    """True once ``processes()`` is empty; Chromium takes a moment to exit after its driver."""
    end = time.monotonic() + seconds
    while processes():
        if time.monotonic() > end:
            return False
        time.sleep(0.2)
    return True


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_one_browser_many_pages_then_nothing_left(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tag = uuid.uuid4().hex
    monkeypatch.setenv("READERMODE_TEST_TAG", tag)  # inherited by the Chromium we start
    before = chromium_roots(os.getpid())
    with Renderer(RenderOptions(block_private=False)) as renderer:
        ours = chromium_roots(os.getpid()) - before
        assert len(ours) == 1, "one browser process for this renderer"
        assert chromium_tagged(tag), "the tag finds our Chromium (so the CLI check below can fail)"
        for _ in range(3):
            assert "plain server-rendered paragraph" in renderer.capture(f"{server}/story").text
        # Still the same browser after three pages: no relaunch per page.
        assert chromium_roots(os.getpid()) - before == ours
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


def test_slow_server_spends_the_budget_not_more(server: str, renderer: Renderer) -> None:
    started = time.monotonic()
    with pytest.raises(BudgetExceededError):
        renderer.render(f"{server}/slow", options=RenderOptions(block_private=False, budget=2.0))
    assert time.monotonic() - started < 8


def test_frozen_main_thread_cannot_hold_the_capture(server: str, renderer: Renderer) -> None:
    started = time.monotonic()
    try:
        snapshot = renderer.render(f"{server}/frozen", options=RenderOptions(block_private=False, budget=4.0))
    except BudgetExceededError:
        snapshot = None
    assert time.monotonic() - started < 4.0 + 12  # budget, plus closing the stuck context
    if snapshot is not None:
        assert snapshot.settled_by == "budget" and snapshot.warnings
    # The same browser still serves the next page.
    assert "plain server-rendered paragraph" in renderer.capture(f"{server}/story").text


def test_cli_renders_urls_by_default_and_leaves_no_browser(server: str) -> None:
    tag = uuid.uuid4().hex
    result = subprocess.run(
        [sys.executable, "-m", "renderer.cli", f"{server}/story", "-f", "json"],
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
