"""The demo behind ``./scripts/run`` with no target: serve the demo app on 127.0.0.1, render it
(its article exists only after its JavaScript ran) and print it as Markdown.

The app ships inside this package (``renderer/demo_app``, package data), so an installed
readermode has it too; the browser tests serve it as ``fixtures/spa/demo``, a link to it."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from importlib import resources
from importlib.resources.abc import Traversable

from renderer.cli import main as cli_main

DEMO_APP = "demo_app"
DEMO_PAGE = "index.html"


def demo_app() -> Traversable:
    """The demo app's folder, from the installed ``renderer`` package."""
    return resources.files("renderer") / DEMO_APP


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.path = self.path.split("?", 1)[0]  # the demo asks for data.json?delay=...
        super().do_GET()


def main(argv: list[str] | None = None) -> int:
    """Serve the demo on a free loopback port and run the CLI on it with ``argv``'s options."""
    with resources.as_file(demo_app()) as root:
        if not (root / DEMO_PAGE).is_file():
            print(f"readermode: demo not found at {root / DEMO_PAGE}", file=sys.stderr)
            return 1
        return _serve_and_run(str(root), sys.argv[1:] if argv is None else argv)


def _serve_and_run(root: str, argv: list[str]) -> int:
    """Serve ``root`` on a free loopback port while the CLI reads its page."""
    handler = functools.partial(_QuietHandler, directory=root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{DEMO_PAGE}"
        return cli_main([url, *argv])
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
