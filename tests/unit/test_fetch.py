"""The static fetch with and without the private-network guard, on loopback servers only.

127.0.0.2 plays a public web server (the injected policy lets it through, and the fake
resolver says ``public.test`` lives there); 127.0.0.1 plays the private network the guard must
keep requests away from. Nothing leaves the machine: ``public.test`` is unknown to the real DNS,
so a fetch of it only works when the connection goes to the address the guard vetted.
"""

from __future__ import annotations

import http.server
import re
import socket
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from extractor import BlockedAddressError, LimitExceededError
from renderer.fetch.addresses import AddressGuard, is_forbidden_address
from renderer.fetch.http import _VettedHTTPSConnection, fetch_url
from renderer.fetch.static import static_snapshot

PUBLIC = "127.0.0.2"
PAGE = (
    b"<html><head><title>T</title></head><body><p>Hello from the public server.</p></body></html>"
)


@dataclass
class Servers:
    port: int
    hits: list[tuple[str, str, str]] = field(default_factory=list)  # (server, path, Host)

    def hit_private(self) -> bool:
        return any(server == "127.0.0.1" for server, _, _ in self.hits)


def _handler(servers: Servers) -> type[http.server.BaseHTTPRequestHandler]:
    redirects = {
        "/to-loopback": "http://127.0.0.1:{port}/secret",
        "/to-odd-loopback": "http://2130706433:{port}/secret",
        "/to-private-name": "http://intranet.test:{port}/secret",
        "/to-file": "file:///etc/passwd",
        "/to-ftp": "ftp://public.test/",
        "/to-public": "http://public.test:{port}/page",
        "/hop3": "/hop2",
        "/hop2": "/hop1",
        "/hop1": "/page",
    }

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            servers.hits.append((self.server.server_address[0], self.path, self.headers["Host"]))
            if self.path in redirects:
                self.send_response(302)
                self.send_header("Location", redirects[self.path].format(port=servers.port))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

    return Handler


@pytest.fixture(scope="module")
def servers() -> Iterator[Servers]:
    """The same little site on 127.0.0.2 ("public") and 127.0.0.1 ("private"), one port."""
    first = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    state = Servers(port=first.server_address[1])
    first.RequestHandlerClass = _handler(state)
    second = http.server.ThreadingHTTPServer((PUBLIC, state.port), _handler(state))
    for server in (first, second):
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield state
    for server in (first, second):
        server.shutdown()
        server.server_close()


@pytest.fixture(autouse=True)
def clear_hits(servers: Servers) -> None:
    servers.hits.clear()


def public_policy(ip):
    return None if str(ip) == PUBLIC else is_forbidden_address(ip)


def resolver_log() -> tuple[list[str], object]:
    asked: list[str] = []
    table = {"public.test": [PUBLIC], "intranet.test": ["10.0.0.7"]}

    def resolve(host: str) -> list[str]:
        asked.append(host)
        if host not in table:
            raise OSError("unknown test host")
        return table[host]

    return asked, resolve


def test_guarded_fetch_connects_to_the_vetted_address(servers: Servers) -> None:
    asked, resolve = resolver_log()
    guard = AddressGuard(resolver=resolve, policy=public_policy)
    page = fetch_url(f"http://public.test:{servers.port}/page", guard=guard, timeout=5)
    assert page.body == PAGE and page.status == 200
    # public.test is unknown to the system resolver: only the vetted address can have worked,
    # resolved once, and the Host header still names the host.
    assert asked == ["public.test"]
    assert servers.hits == [(PUBLIC, "/page", f"public.test:{servers.port}")]


def test_public_redirect_is_followed_and_vetted_again(servers: Servers) -> None:
    asked, resolve = resolver_log()
    guard = AddressGuard(resolver=resolve, policy=public_policy)
    page = fetch_url(f"http://public.test:{servers.port}/to-public", guard=guard, timeout=5)
    assert page.final_url == f"http://public.test:{servers.port}/page"
    assert asked == ["public.test", "public.test"]  # one lookup per connection, each vetted


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        ("/to-loopback", "127.0.0.1 is a loopback address"),
        ("/to-odd-loopback", "127.0.0.1 is a loopback address"),
        ("/to-private-name", "10.0.0.7 is a private (RFC 1918) address"),
        ("/to-file", "file: URLs read local files"),
        ("/to-ftp", "only http/https"),
    ],
)
def test_redirect_to_a_forbidden_target_is_refused_before_connecting(
    servers: Servers, path: str, refused: str
) -> None:
    _, resolve = resolver_log()
    guard = AddressGuard(resolver=resolve, policy=public_policy)
    with pytest.raises(BlockedAddressError, match=re.escape(refused)):
        fetch_url(f"http://public.test:{servers.port}{path}", guard=guard, timeout=5)
    assert [hit[1] for hit in servers.hits] == [path]
    assert not servers.hit_private()


@pytest.mark.parametrize("host", ["127.0.0.1", "2130706433", "localhost", "[::ffff:127.0.0.1]"])
def test_forbidden_target_is_refused_before_any_byte_is_sent(servers: Servers, host: str) -> None:
    with pytest.raises(BlockedAddressError, match="loopback"):
        fetch_url(f"http://{host}:{servers.port}/secret", guard=AddressGuard(), timeout=5)
    assert servers.hits == []


def test_without_a_guard_loopback_is_fetched(servers: Servers) -> None:
    # The CLI's default: local dev servers are a real use.
    page = fetch_url(f"http://127.0.0.1:{servers.port}/to-loopback", timeout=5)
    assert page.final_url.endswith("/secret") and servers.hit_private()


def test_redirect_cap_is_a_parameter(servers: Servers) -> None:
    url = f"http://127.0.0.1:{servers.port}/hop3"
    assert fetch_url(url, max_redirects=3, timeout=5).final_url.endswith("/page")
    with pytest.raises(LimitExceededError, match=r"too many redirects .*: over max_redirects=2"):
        fetch_url(url, max_redirects=2, timeout=5)
    with pytest.raises(LimitExceededError, match=r"over max_redirects=0"):
        fetch_url(f"http://127.0.0.1:{servers.port}/hop1", max_redirects=0, timeout=5)


def test_tls_keeps_the_host_name_for_sni_while_connecting_to_the_vetted_ip(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, object] = {}

    class RecordingContext(ssl.SSLContext):
        def wrap_socket(self, sock: socket.socket, *args: object, **kwargs: object):  # type: ignore[override]
            seen["peer"] = sock.getpeername()[0]
            seen["server_hostname"] = kwargs.get("server_hostname")
            return sock  # the loopback server speaks plain HTTP; the handshake is not the point

    _, resolve = resolver_log()
    guard = AddressGuard(resolver=resolve, policy=public_policy)
    connection = _VettedHTTPSConnection(
        "public.test",
        servers.port,
        timeout=5,
        context=RecordingContext(ssl.PROTOCOL_TLS_CLIENT),
        guard=guard,
        url="https://public.test/",
    )
    connection.connect()
    connection.close()
    assert seen == {"peer": PUBLIC, "server_hostname": "public.test"}


def test_file_url_target_is_refused_but_plain_paths_are_the_callers_own(tmp_path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(PAGE)
    with pytest.raises(BlockedAddressError, match="file: URLs"):
        static_snapshot(page.as_uri(), guard=AddressGuard())
    # without the guard file: URLs still work
    assert "Hello" in static_snapshot(page.as_uri(), block_private=False).html
    assert "Hello" in static_snapshot(str(page), guard=AddressGuard()).html


def test_static_snapshot_passes_the_guard_to_the_fetch(servers: Servers) -> None:
    with pytest.raises(BlockedAddressError):
        static_snapshot(f"http://127.0.0.1:{servers.port}/page", guard=AddressGuard(), timeout=5)
    assert servers.hits == []
