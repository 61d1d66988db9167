"""A loopback server for pages that fight back: the static pages of fixtures/hostile plus
dynamic routes for what a file cannot do (huge bodies, slow headers, redirects, odd types).

Only ever bound to 127.0.0.1. Handler threads are daemons and every sleep waits on the
server's stop event, so a request that is still "sleeping" cannot keep the test session alive.

Routes::

    /<name>.html            fixtures/hostile/<name>.html
    /tick, /slow-tick       tiny text answers for the polling page (the second one takes 1 s)
    /huge?mb=N[&chunked=1]  N MB of HTML (50 by default); with chunked=1 no Content-Length
    /big?kb=N               an article followed by N KB of paragraphs (with Content-Length)
    /nested?depth=N         an article, then N nested <div>s in the markup
    /slow-headers?s=N       answers after N seconds (30 by default)
    /held                   answers (the story) only once the test releases ``server.held``
    /trickle?n=N            the story at once, then N comments one a second (60 by default), no
                            Content-Length: ``load`` does not fire while they come
    /redirect?n=N           N HTTP redirects, then the story
    /redirect-loop          redirects to itself
    /status/<code>          that status with an HTML body
    /file.pdf, /image.png, /data.json   non-HTML answers
    /attachment             HTML sent as a download (Content-Disposition: attachment)
    /empty                  200 with no body
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.conftest import FIXTURES
from tests.held import HeldResponse

HOSTILE = FIXTURES / "hostile"
CHUNK = 64 * 1024
PNG_1X1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)
PDF_STUB = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
FILLER = "<p>Filler paragraph number {i} about the quay, the crane and the town beside it.</p>\n"


def story_html(title: str = "Harbour crane stays") -> str:
    return (
        (HOSTILE / "story.html").read_text(encoding="utf-8").replace("Harbour crane stays", title)
    )


class HostileHandler(http.server.BaseHTTPRequestHandler):
    """Serves the routes in the module docstring; ``server.stop`` ends every sleep."""

    server: HostileServer

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        parts = urlsplit(self.path)
        query = {key: values[0] for key, values in parse_qs(parts.query).items()}
        path = parts.path
        try:
            route = self._route(path)
            route(path, query)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser gave up on us: that is what several tests want

    def _route(self, path: str) -> Callable[[str, dict[str, str]], None]:
        if path.startswith("/status/"):
            return self._status
        return {
            "/tick": lambda *_: self._send(200, b"ok", "text/plain"),
            "/slow-tick": self._slow_tick,
            "/huge": self._huge,
            "/big": self._big,
            "/nested": self._nested,
            "/slow-headers": self._slow_headers,
            "/held": self._held,
            "/trickle": self._trickle,
            "/redirect": self._redirect,
            "/redirect-loop": lambda *_: self._redirect_to("/redirect-loop"),
            "/file.pdf": lambda *_: self._send(200, PDF_STUB, "application/pdf"),
            "/image.png": lambda *_: self._send(200, PNG_1X1, "image/png"),
            "/data.json": lambda *_: self._send(
                200,
                json.dumps({"title": "not a page", "items": [1, 2, 3]}).encode(),
                "application/json",
            ),
            "/attachment": self._attachment,
            "/empty": lambda *_: self._send(200, b"", "text/html; charset=utf-8"),
        }.get(path, self._static)

    def _send(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _html(self, text: str, status: int = 200) -> None:
        self._send(status, text.encode("utf-8"), "text/html; charset=utf-8")

    def _static(self, path: str, query: dict[str, str]) -> None:
        name = Path(path).name
        file = HOSTILE / name
        if not name.endswith(".html") or not file.is_file():
            self._html("<html><body><h1>Not found</h1><p>No such page.</p></body></html>", 404)
            return
        self._send(200, file.read_bytes(), "text/html; charset=utf-8")

    def _slow_tick(self, path: str, query: dict[str, str]) -> None:
        self.server.stop.wait(1.0)
        self._send(200, b"ok", "text/plain")

    def _status(self, path: str, query: dict[str, str]) -> None:
        code = int(path.rsplit("/", 1)[-1])
        self._html(story_html(f"Error page {code} with a body"), code)

    def _huge(self, path: str, query: dict[str, str]) -> None:
        """N MB of paragraphs, written in chunks; stops as soon as the browser hangs up."""
        total = int(float(query.get("mb", "50")) * 1_000_000)
        head = story_html("Huge crane page").split("</article>")[0] + "</article>\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        if query.get("chunked") != "1":
            self.send_header("Content-Length", str(total))
        self.end_headers()
        block = "".join(FILLER.format(i=i) for i in range(CHUNK // len(FILLER))).encode()
        sent = 0
        payload = head.encode()
        while sent < total and not self.server.stop.is_set():
            piece = payload[: total - sent]
            self.wfile.write(piece)
            sent += len(piece)
            payload = block
        self.close_connection = True

    def _big(self, path: str, query: dict[str, str]) -> None:
        size = int(query.get("kb", "100")) * 1000
        head = story_html("Big crane page").split("</article>")[0] + "</article>\n"
        filler, i = [], 0
        while sum(map(len, filler)) < size:
            filler.append(FILLER.format(i=i))
            i += 1
        self._html(head + "".join(filler) + "</body></html>")

    def _nested(self, path: str, query: dict[str, str]) -> None:
        depth = int(query.get("depth", "5000"))
        head = story_html("Deeply nested crane page").split("</article>")[0] + "</article>\n"
        inner = "<p>Deepest words of the nested crane page.</p>"
        self._html(head + "<div>" * depth + inner + "</div>" * depth + "</body></html>")

    def _slow_headers(self, path: str, query: dict[str, str]) -> None:
        if self.server.stop.wait(float(query.get("s", "30"))):
            return  # the session is ending: answer nothing
        self._html(story_html("Slow crane page"))

    def _held(self, path: str, query: dict[str, str]) -> None:
        """No clock: the test decides when (or whether, before close) this answers."""
        if not self.server.held.hold() or self.server.stop.is_set():
            return  # the session is ending: answer nothing
        self._html(story_html("Held crane page"))

    def _trickle(self, path: str, query: dict[str, str]) -> None:
        head = story_html("Trickling crane page").split("</article>")[0] + "</article>\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(head.encode() + b"<section class='comments'>\n")
        self.wfile.flush()
        for number in range(int(query.get("n", "60"))):
            if self.server.stop.wait(1.0):
                break
            self.wfile.write(f"<p class='comment'>Comment {number} on the crane.</p>\n".encode())
            self.wfile.flush()
        self.wfile.write(b"</section></body></html>\n")
        self.close_connection = True

    def _redirect(self, path: str, query: dict[str, str]) -> None:
        left = int(query.get("n", "1"))
        self._redirect_to(f"/redirect?n={left - 1}" if left > 1 else "/story.html")

    def _redirect_to(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()

    def _attachment(self, path: str, query: dict[str, str]) -> None:
        self._send(
            200,
            story_html("Crane page as a download").encode(),
            "text/html; charset=utf-8",
            {"Content-Disposition": 'attachment; filename="crane.html"'},
        )


class HostileServer(http.server.ThreadingHTTPServer):
    """A daemon-threaded server on 127.0.0.1 with a random port; ``close()`` ends it."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), HostileHandler)
        self.stop = threading.Event()
        self.held = HeldResponse()
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base(self) -> str:
        """Base URL without a trailing slash, e.g. http://127.0.0.1:41234."""
        return f"http://127.0.0.1:{self.server_address[1]}"

    def close(self) -> None:
        self.stop.set()
        self.held.release()
        self.shutdown()
        self.server_close()
