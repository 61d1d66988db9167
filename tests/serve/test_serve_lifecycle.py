"""Back-pressure, not collapse, on a real ``readermode serve --max-concurrent 1 --queue 1``:
a full queue answers 429 with Retry-After, a client that hangs up cancels its render, a killed
browser fails its request clearly and the next one works, SIGTERM drains and leaves no Chromium.

Every wait is for an event the test controls: a held page's arrival at the fixture server, a
gauge in /metrics, the process's exit. No sleeps, no timings asserted."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from collections.abc import Iterator

import pytest

from tests.browser.conftest import chromium_tagged, tagged_roots, wait_until_gone
from tests.held import HeldResponse
from tests.serve.harness import (
    FixtureServer,
    ServeProcess,
    in_background,
    start_serve,
    wait_for,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = start_serve(
        tmp_path_factory.mktemp("serve-life"), "--allow-private", "--max-concurrent", "1",
        "--queue", "1", "--timeout", "60",
    )
    yield process
    assert process.stop() == 0
    assert wait_until_gone(lambda: chromium_tagged(process.tag))


def held_path(pages: FixtureServer, name: str) -> str:
    pages.held = HeldResponse()
    return f"/{pages.base}/held/{name}"


def test_a_full_queue_answers_429_with_retry_after(server: ServeProcess, pages: FixtureServer) -> None:
    path = held_path(pages, "busy")
    running = in_background(server, "GET", path, headers={"X-No-Cache": "1"})
    try:
        assert pages.held.wait_arrived()
        waiting = in_background(server, "GET", f"/{pages.base}/demo/", headers={"X-No-Render": "1"})
        wait_for(lambda: server.metric("readermode_queue_length") == 1, "one request queued")
        refused = server.get(f"/{pages.base}/demo/")
        assert refused.status == 429
        assert refused.error["kind"] == "QueueFull" and refused.error["exit_code"] == 75
        assert int(refused.headers["retry-after"]) >= 1
    finally:
        pages.held.release()
    assert running.answer().status == 200
    assert waiting.answer().status == 200


def test_a_client_that_disconnects_cancels_its_render(
    server: ServeProcess, pages: FixtureServer
) -> None:
    cancelled = server.metric("readermode_cancelled_total")
    path = held_path(pages, "abandoned")
    client = socket.create_connection(("127.0.0.1", server.port))
    try:
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nX-No-Cache: 1\r\n\r\n".encode())
        assert pages.held.wait_arrived()
        wait_for(lambda: server.metric("readermode_pages_in_flight") == 1, "the page in flight")
    finally:
        client.close()
    try:
        wait_for(lambda: server.metric("readermode_cancelled_total") == cancelled + 1, "cancel")
        wait_for(lambda: server.metric("readermode_pages_in_flight") == 0, "the slot freed")
    finally:
        pages.held.release()
    assert server.get(f"/{pages.base}/demo/", X_No_Cache="1").status == 200


def test_a_killed_browser_fails_its_request_and_the_next_one_works(
    server: ServeProcess, pages: FixtureServer
) -> None:
    restarts = server.metric("readermode_browser_restarts_total")
    path = held_path(pages, "doomed")
    doomed = in_background(server, "GET", path, headers={"X-No-Cache": "1"})
    try:
        assert pages.held.wait_arrived()
        # Every process of the server's browser: Debian's headless shell is a shell script
        # that starts the real browser as its child, so killing the root alone is not a crash.
        browser = chromium_tagged(server.tag)
        assert tagged_roots(server.tag, server.process.pid) <= browser
        for pid in browser:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        answer = doomed.answer()
    finally:
        pages.held.release()
    assert answer.status == 502, answer.body
    assert answer.error["kind"] == "RenderError" and "browser" in answer.error["message"]
    after = server.get(f"/{pages.base}/demo/", X_No_Cache="1")
    assert after.status == 200 and "Milky Way" in after.text
    assert server.metric("readermode_browser_restarts_total") == restarts + 1


def test_sigterm_drains_then_leaves_no_chromium(
    tmp_path_factory: pytest.TempPathFactory, pages: FixtureServer
) -> None:
    server = start_serve(tmp_path_factory.mktemp("serve-drain"), "--allow-private", "--timeout", "60")
    try:
        path = held_path(pages, "in-flight")
        in_flight = in_background(server, "GET", path, headers={"X-No-Cache": "1"})
        assert pages.held.wait_arrived()
        server.process.send_signal(signal.SIGTERM)
        wait_for(lambda: server.get("/healthz").status == 503, "draining")
        refused = server.get(f"/{pages.base}/demo/")
        assert refused.status == 503 and refused.error["kind"] == "ShuttingDown"
        assert "retry-after" in refused.headers
        pages.held.release()
        answer = in_flight.answer()
        assert answer.status == 200 and "Held story" in answer.text
        assert server.process.wait(120) == 0
    finally:
        pages.held.release()
        server.stop()
    assert wait_until_gone(lambda: chromium_tagged(server.tag))
