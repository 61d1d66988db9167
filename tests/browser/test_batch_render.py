"""Rendered batches through the CLI: two fixture sites on two loopback servers, --jobs 2, the
progress bar on a terminal (stderr is a pty), JSON Lines on stdout, and Ctrl-C."""

from __future__ import annotations

import fcntl
import http.server
import json
import os
import queue
import signal
import struct
import subprocess
import sys
import termios
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from extractor import HTTPStatusError
from renderer import Renderer
from tests.browser.conftest import chromium_tagged, wait_until_gone
from tests.conftest import FIXTURES
from tests.held import HeldResponse

pytestmark = pytest.mark.browser

SITES = FIXTURES / "sites"
TEMPLATE = {
    "kelvik-courier": ("since 1911", "We use cookies", "in your inbox", "Read more on kelvik"),
    "plot-fourteen": (
        "a weekly diary from",
        "Get the diary",
        "About the writer",
        "Read more on plot",
    ),
}
OWN = {
    "kelvik-courier": "quarry as the originals in 1887",  # page-2
    "plot-fourteen": "a hardneck from a seed swap",  # page-2
}


class SiteServer(http.server.ThreadingHTTPServer):
    """A fixture site's server; ``held`` is the HeldResponse behind /slow.html."""

    daemon_threads = True
    held: HeldResponse


SERVERS: dict[str, SiteServer] = {}
"""The module's servers by base URL, so a test can hand a server a fresh HeldResponse."""


def make_handler(folder: Path) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        """One fixture site; /slow.html answers only once the test releases it (a page to
        interrupt: no clock decides whether it is still loading when the interrupt comes)."""

        server: SiteServer

        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            if self.path == "/slow.html":
                if not self.server.held.hold():
                    return  # the safety backstop ran out: answer nothing
                self.path = "/page-1.html"
            super().do_GET()

    return Handler


@pytest.fixture(scope="module")
def site_servers() -> Iterator[dict[str, str]]:
    """Base URL per fixture site: each site on a server of its own (its own host:port)."""
    servers = {}
    for site in TEMPLATE:
        httpd = SiteServer(("127.0.0.1", 0), make_handler(SITES / site))
        httpd.held = HeldResponse()
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        servers[site] = httpd
    bases = {site: f"http://127.0.0.1:{httpd.server_address[1]}" for site, httpd in servers.items()}
    SERVERS.update({bases[site]: httpd for site, httpd in servers.items()})
    yield bases
    for httpd in servers.values():
        httpd.held.release()
        httpd.shutdown()
        httpd.server_close()


def page_urls(site_servers: dict[str, str]) -> list[str]:
    return [
        f"{base}/{path.name}"
        for site, base in site_servers.items()
        for path in sorted((SITES / site).glob("page-*.html"))
    ]


def run_with_terminal_stderr(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run the CLI with stderr on a pseudo-terminal (100 columns) and stdout on a pipe."""
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "renderer.cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=terminal,
        env=env,
    )
    os.close(terminal)
    chunks: list[bytes] = []

    def drain() -> None:  # read the terminal as it goes, so its buffer never fills
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # EIO: the child closed the terminal
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    stdout, _ = process.communicate(timeout=180)
    reader.join(timeout=10)
    os.close(controller)
    return process.returncode, stdout.decode("utf-8"), b"".join(chunks).decode("utf-8", "replace")


def test_template_is_inside_the_rendered_content(
    site_servers: dict[str, str], renderer: Renderer
) -> None:
    """Without the site-wide pass, Readability.js keeps each site's template lines."""
    for site, base in site_servers.items():
        text = renderer.capture(f"{base}/page-2.html").text
        assert all(phrase in text for phrase in TEMPLATE[site]), site


def test_rendered_batch_with_progress_bar(site_servers: dict[str, str], tmp_path: Path) -> None:
    urls = page_urls(site_servers)
    gone = f"{site_servers['plot-fourteen']}/gone.html"
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join([*urls[:7], gone, *urls[7:]]) + "\n", encoding="utf-8")
    tag = uuid.uuid4().hex
    code, stdout, stderr = run_with_terminal_stderr(
        ["-i", str(listing), "--jobs", "2", "--delay", "0", "--timeout", "60"],  # backstop
        env={**os.environ, "READERMODE_TEST_TAG": tag},
    )
    assert code == HTTPStatusError.exit_code, stderr

    records = [json.loads(line) for line in stdout.splitlines()]
    assert sorted(record["target"] for record in records) == sorted([*urls, gone])
    failed = [record for record in records if not record["ok"]]
    assert [(r["target"], r["error_kind"]) for r in failed] == [(gone, "HTTPStatusError")]
    for record in (r for r in records if r["ok"]):
        site = next(s for s, base in site_servers.items() if record["target"].startswith(base))
        assert record["stage"] in ("readability-js", "readability-lxml")  # the cross-check
        assert not any(phrase in record["text"] for phrase in TEMPLATE[site]), record["target"]
        assert record["trace"][-1]["name"] == "sitewide"
        if record["target"].endswith("page-2.html"):
            assert OWN[site] in record["text"]

    # The bar: carriage-return redraws, the count, done/failed, a rate; the failure's own line.
    assert "\r" in stderr
    assert "11/11" in stderr and "done=10" in stderr and "failed=1" in stderr
    assert "page/s" in stderr or "s/page" in stderr
    assert f"readermode: {gone}: HTTP 404" in stderr
    assert "Traceback" not in stderr
    assert wait_until_gone(lambda: chromium_tagged(tag)), "the batch left a Chromium running"


def test_ctrl_c_writes_what_was_captured_and_closes_the_browser(
    site_servers: dict[str, str],
) -> None:
    """Three quick pages and one held page: Ctrl-C once the quick ones are written and the held
    one was requested. The held page cannot finish and its budget (600 s) cannot run out first,
    so exit 130 does not depend on how fast the machine is."""
    base = site_servers["kelvik-courier"]
    held = HeldResponse()
    site_server_of(site_servers, "kelvik-courier").held = held
    targets = [f"{base}/page-{n}.html" for n in (1, 2, 3)] + [f"{base}/slow.html"]
    tag = uuid.uuid4().hex
    process = subprocess.Popen(
        [sys.executable, "-m", "renderer.cli", *targets, "--no-sitewide", "--jobs", "2"]
        + ["--delay", "0", "--timeout", "600"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # faulthandler: a process that outlives its interrupt is stopped with SIGABRT, which
        # then prints every thread's stack: the failure says where it hung.
        env={**os.environ, "READERMODE_TEST_TAG": tag, "PYTHONFAULTHANDLER": "1"},
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(
        target=lambda: [lines.put(line) for line in process.stdout],  # type: ignore[union-attr]
        daemon=True,
    )
    reader.start()
    try:
        written = [lines.get(timeout=180) for _ in range(3)]  # the three quick pages
        assert held.wait_arrived(), "the batch never asked for the held page"
        assert chromium_tagged(tag), "the tag finds the batch's Chromium (so the check can fail)"
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)
            _, stderr = process.communicate(timeout=60)
            pytest.fail(f"the batch outlived its Ctrl-C by 120 s; its threads:\n{stderr}")
        assert code == 130
    finally:
        held.release()
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "interrupted" in process.stderr.read()  # type: ignore[union-attr]
    assert sorted(json.loads(line)["target"] for line in written) == targets[:3]
    reader.join(timeout=60)  # stdout is closed: the reader has seen every line there was
    assert lines.empty()
    assert wait_until_gone(lambda: chromium_tagged(tag)), "Ctrl-C left a Chromium running"


def site_server_of(site_servers: dict[str, str], site: str) -> SiteServer:
    """The server object behind a site's base URL (kept by the module fixture)."""
    return SERVERS[site_servers[site]]
