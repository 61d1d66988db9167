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
from collections.abc import Callable, Iterable, Iterator
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
    """One Chromium for every capture test (a fresh context per page). The budget is a backstop:
    pages end when they settle, and a loaded machine must not make a result partial."""
    with Renderer(RenderOptions(block_private=False, budget=60.0)) as shared:
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


def tagged_roots(tag: str, below: int) -> set[int]:
    """Browser main processes carrying READERMODE_TEST_TAG=tag below process ``below``: tagged
    Chromium processes whose parent is not Chromium and whose command line has no ``--type=``
    switch (Chromium gives one to every child process it starts). Being below ``below`` leaves
    out the crashpad handlers, which carry the tag too but are reparented to init.

    One look, and no timing in it: the tag means no other test's browser can be counted, and a
    test that must not count a process living for a moment (a clean-clone CI run once saw an
    extra root) intersects looks taken around its own events instead of sleeping between
    them."""
    _, names, parents = _process_table()
    return {
        pid
        for pid in chromium_tagged(tag) & set(chromium_descendants(below))
        if "chrom" not in names.get(parents.get(pid, 0), "").lower() and not _has_type_switch(pid)
    }


def wait_until_gone(processes: Callable[[], Iterable[int]], seconds: float = 60.0) -> bool:
    """True once ``processes()`` is empty. Chromium exits a moment after its driver, later on a
    busy machine: ``seconds`` is a backstop against waiting forever, and a pass never needs it."""
    end = time.monotonic() + seconds
    while processes():
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True


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
