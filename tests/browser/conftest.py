"""Browser-test plumbing: the system Chromium for pytest-playwright, a loopback server for the
SPA fixtures, one shared Renderer, and a check that no Chromium outlives the suite.

Everything is served on 127.0.0.1; nothing leaves the machine.
"""

from __future__ import annotations

import http.server
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from renderer import Renderer, RenderOptions, find_chromium
from renderer.browser.launch import launch_flags
from tests.conftest import FIXTURES

SPA = FIXTURES / "spa"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict, browser_name: str) -> dict:
    """pytest-playwright's browser is the system Chromium with our flags (Chromium only:
    overriding the executable for --browser firefox would hang)."""
    if browser_name != "chromium":
        return browser_type_launch_args
    return {**browser_type_launch_args, "executable_path": find_chromium(), "args": launch_flags()}


class SpaHandler(http.server.SimpleHTTPRequestHandler):
    """Static files from fixtures/spa, plus headers.json per folder and ?delay=MS."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, directory=str(SPA), **kwargs)  # type: ignore[arg-type]

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        query = parse_qs(urlsplit(self.path).query)
        delay_ms = int(query.get("delay", ["0"])[0] or 0)
        if delay_ms:
            time.sleep(min(delay_ms, 10_000) / 1000)
        super().do_GET()

    def end_headers(self) -> None:
        path = Path(urlsplit(self.path).path.lstrip("/"))
        headers_file = SPA / path.parent / "headers.json"
        if headers_file.is_file():
            extra = json.loads(headers_file.read_text(encoding="utf-8")).get(
                path.name or "index.html", {}
            )
            for name, value in extra.items():
                self.send_header(name, value)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


@pytest.fixture(scope="session")
def spa_server() -> Iterator[str]:
    """Base URL of the loopback server for fixtures/spa (ends with '/')."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SpaHandler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def renderer() -> Iterator[Renderer]:
    """One Chromium for every capture test (a fresh context per page)."""
    with Renderer(RenderOptions(block_private=False, budget=20.0)) as shared:
        yield shared


def _process_table() -> tuple[dict[int, list[int]], dict[int, str], dict[int, int]]:
    """(children by parent, name by pid, parent by pid) from Linux /proc."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
        names[int(entry)] = name
        parents[int(entry)] = ppid
    return children, names, parents


def all_chromium() -> set[int]:
    """Every Chromium process on the machine."""
    _, names, _ = _process_table()
    return {pid for pid, name in names.items() if "chrom" in name.lower()}


def chromium_tagged(tag: str) -> set[int]:
    """Chromium processes whose environment carries READERMODE_TEST_TAG=tag (inherited from the
    process a test started), wherever they were reparented to."""
    marker = f"READERMODE_TEST_TAG={tag}".encode()
    found = set()
    for pid in all_chromium():
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if marker in environ.split(b"\0"):
            found.add(pid)
    return found


def chromium_roots(pid: int, samples: int = 5, gap_s: float = 0.2) -> set[int]:
    """Browser main processes below ``pid`` that last: Chromium processes whose parent is not
    Chromium and whose command line has no ``--type=`` switch (Chromium gives one to every
    child process it starts), present in each of ``samples`` looks ``gap_s`` apart.

    Why several looks: a clean-clone CI run once counted two roots for one renderer, and a
    probe saw an extra root that was gone before it could be read. A process that lives for
    a moment can pass the other tests in one look; it must last 0.8 s to pass all five."""
    lasting: set[int] | None = None
    for look in range(samples):
        if look:
            time.sleep(gap_s)
        seen = _roots_once(pid)
        lasting = seen if lasting is None else lasting & seen
    return lasting or set()


def _roots_once(pid: int) -> set[int]:
    _, names, parents = _process_table()
    return {
        child
        for child in chromium_descendants(pid)
        if "chrom" not in names.get(parents.get(child, 0), "").lower()
        and not _has_type_switch(child)
    }


def _has_type_switch(pid: int) -> bool:
    try:
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return True  # gone already: not a lasting browser
    return any(argument.startswith(b"--type=") for argument in arguments)


def chromium_descendants(pid: int) -> list[int]:
    """PIDs of Chromium processes below ``pid`` in the process tree."""
    children, names, _ = _process_table()
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            stack.append(child)
            if "chrom" in names.get(child, "").lower():
                found.append(child)
    return found


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """No Chromium may outlive the suite: every browser the tests started must be shut down."""
    leftover = chromium_descendants(os.getpid())
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
    if leftover:
        reporter.write_line(
            f"FAILED: {len(leftover)} Chromium process(es) left running after the suite: {leftover}",
            red=True,
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif reporter is not None:
        reporter.write_line("browser suite: no Chromium process left running")
