"""The demo behind ``./scripts/run`` with no target: serve fixtures/spa on 127.0.0.1, render the
demo app (its article exists only after its JavaScript ran) and print it as Markdown."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

from renderer.cli import main as cli_main

DEMO_ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "spa"
DEMO_PAGE = "demo/index.html"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.path = self.path.split("?", 1)[0]  # the demo asks for data.json?delay=...
        super().do_GET()


def main(argv: list[str] | None = None) -> int:
    """Serve the demo on a free loopback port and run the CLI on it with ``argv``'s options."""
    if not (DEMO_ROOT / DEMO_PAGE).is_file():
        print(f"readermode: demo not found at {DEMO_ROOT / DEMO_PAGE}", file=sys.stderr)
        return 1
    handler = functools.partial(_QuietHandler, directory=str(DEMO_ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{DEMO_PAGE}"
        return cli_main([url, *(sys.argv[1:] if argv is None else argv)])
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
