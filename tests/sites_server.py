"""A small web site on 127.0.0.1 for the discovery and politeness tests: routes are a dict of
path (with query) to ``(status, content type, body)``, or a callable for pages made per
request; ``/robots.txt`` can hang until the test releases it. Every request is recorded with
its headers, so a test can see what was fetched and how."""

from __future__ import annotations

import gzip
import http.server
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import escape

Response = tuple[int, str, bytes]
Route = Response | Callable[[str], Response]

HANG_LIMIT_S = 60.0
"""A hanging route gives up after this long even if the test never releases it (teardown)."""


@dataclass
class Site:
    """The site's routes, the requests it received, and the hang switch of /robots.txt."""

    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    hang_robots: bool = False
    release: threading.Event = field(default_factory=threading.Event)
    base: str = ""

    def paths(self) -> list[str]:
        return [path for path, _ in self.requests]


def article(title: str, links: tuple[str, ...] = (), words: int = 80) -> bytes:
    """An article page with enough prose to extract, and its links in a nav list."""
    prose = " ".join(
        f"{title.lower()} sentence {n} about the ferry and the fjord." for n in range(words // 8)
    )
    nav = "".join(f'<li><a href="{escape(link)}">{escape(link)}</a></li>' for link in links)
    return (
        f"<!doctype html><html><head><title>{escape(title)}</title></head><body>"
        f"<nav><ul>{nav}</ul></nav><article><h1>{escape(title)}</h1>"
        f"<p>{prose}</p><p>{prose}</p></article></body></html>"
    ).encode()


def html(body: bytes) -> Response:
    return (200, "text/html; charset=utf-8", body)


def xml(text: str, content_type: str = "application/xml") -> Response:
    return (200, content_type, text.encode())


def gzipped(text: str) -> Response:
    return (200, "application/gzip", gzip.compress(text.encode()))


def urlset(base: str, paths: list[str]) -> str:
    locs = "".join(f"<url><loc>{base}{path}</loc></url>" for path in paths)
    return f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'


def sitemap_index(base: str, paths: list[str]) -> str:
    locs = "".join(f"<sitemap><loc>{base}{path}</loc></sitemap>" for path in paths)
    return (
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{locs}</sitemapindex>"
    )


def _handler(site: Site) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            site.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
            if self.path == "/robots.txt" and site.hang_robots:
                site.release.wait(HANG_LIMIT_S)
                return
            route = site.routes.get(self.path)
            if route is None:
                status, kind, body = 404, "text/plain", b"not found"
            else:
                status, kind, body = route(self.path) if callable(route) else route
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


@contextmanager
def serve(site: Site) -> Iterator[Site]:
    """``site`` served on 127.0.0.1 (its ``base`` set, no trailing slash) until the block ends."""
    with _running(_handler(site)) as base:
        site.base = base
        try:
            yield site
        finally:
            site.release.set()  # a hanging /robots.txt lets its thread go before shutdown


@dataclass
class Proxy:
    """A small forward HTTP proxy on 127.0.0.1: each absolute-URI GET is recorded and fetched
    from its origin (loopback only), the answer passed back."""

    seen: list[str] = field(default_factory=list)
    url: str = ""


def _proxy_handler(proxy: Proxy) -> type[http.server.BaseHTTPRequestHandler]:
    import http.client
    from urllib.parse import urlsplit

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            proxy.seen.append(self.path)
            target = urlsplit(self.path)
            if target.hostname != "127.0.0.1":  # a test proxy must not reach out
                self.send_error(403)
                return
            upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
            headers = {k: v for k, v in self.headers.items() if k.lower() != "proxy-connection"}
            upstream.request(
                "GET", target.path + (f"?{target.query}" if target.query else ""), headers=headers
            )
            answer = upstream.getresponse()
            body = answer.read()
            self.send_response(answer.status)
            for name, value in answer.getheaders():
                if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            upstream.close()

        def do_CONNECT(self) -> None:  # noqa: N802 - Chromium tunnels even http through it
            import select
            import socket

            proxy.seen.append(f"CONNECT {self.path}")
            host, _, port = self.path.rpartition(":")
            if host != "127.0.0.1":
                self.send_error(403)
                return
            upstream = socket.create_connection((host, int(port)), timeout=30)
            self.send_response(200, "Connection established")
            self.end_headers()
            ends = [self.connection, upstream]
            try:
                while True:
                    readable, _, _ = select.select(ends, [], [], 30)
                    if not readable:
                        return
                    for end in readable:
                        data = end.recv(65536)
                        if not data:
                            return
                        (upstream if end is self.connection else self.connection).sendall(data)
            finally:
                upstream.close()
                self.close_connection = True

    return Handler


@contextmanager
def forward_proxy() -> Iterator[Proxy]:
    proxy = Proxy()
    with _running(_proxy_handler(proxy)) as base:
        proxy.url = base
        yield proxy


@contextmanager
def _running(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """A threading server for ``handler`` on a free loopback port; yields its base URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
