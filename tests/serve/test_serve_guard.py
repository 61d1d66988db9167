"""Safe by default: a real ``readermode serve`` with the private-network guard on (no
``--allow-private`` anywhere here) and a token."""

from __future__ import annotations

import http.server
import socket
import sys
import threading
from collections.abc import Iterator

import pytest

from tests.serve.harness import FixtureServer, ServeProcess, start_serve
from tests.sites_server import Site, article, forward_proxy, html, serve

pytestmark = pytest.mark.browser

TOKEN = "s3cret-token-for-tests"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = start_serve(
        tmp_path_factory.mktemp("serve-guard"), env={"READERMODE_TOKEN": TOKEN}
    )
    yield process
    assert process.stop() == 0


def loopback_name() -> str:
    """A name that is not ``localhost`` and resolves to loopback through the system resolver
    (/etc/hosts): this machine's own name where it does so."""
    for name in (socket.gethostname(), "ip6-localhost", "localhost.localdomain"):
        try:
            found = {info[4][0] for info in socket.getaddrinfo(name, None)}
        except OSError:
            continue
        if name != "localhost" and found and all(a.startswith("127.") or a == "::1" for a in found):
            return name
    pytest.skip("no name on this machine resolves to loopback but localhost")


def test_every_endpoint_but_healthz_needs_the_token(server: ServeProcess) -> None:
    assert server.get("/healthz").status == 200
    for method, path in (("GET", "/metrics"), ("GET", "/https://example.com/"),
                         ("POST", "/v1/extract"), ("POST", "/v1/compare"),
                         ("POST", "/v1/batch"), ("GET", "/v1/reports/x"), ("GET", "/v1/info")):
        missing = server.request(method, path, b"{}")
        assert missing.status == 401, (method, path)
        assert missing.error["kind"] == "Unauthorized" and "missing" in missing.error["message"]
        assert missing.headers["www-authenticate"] == "Bearer"
        wrong = server.request(method, path, b"{}", {"Authorization": "Bearer nope"})
        assert wrong.status == 401 and "wrong" in wrong.error["message"]
    right = server.request("GET", "/metrics", headers=AUTH)
    assert right.status == 200 and "readermode_requests_total" in right.text


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.1:9/",
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://192.168.1.1/admin",
        "http://100.64.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00:ec2::254]/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://0x7f.1/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::1]/",
        "http://localhost/",
        "http://admin.localhost/",
    ],
)
def test_private_targets_are_refused(server: ServeProcess, target: str) -> None:
    for answer in (
        server.request("GET", f"/{target}", headers=AUTH),
        server.request("POST", "/v1/extract", {"url": target}, AUTH),
        server.request("POST", "/v1/extract", {"url": target, "render": False}, AUTH),
    ):
        assert answer.status == 403, (target, answer.body)
        assert answer.error["kind"] == "BlockedAddressError" and answer.error["exit_code"] == 16


def test_a_name_resolving_to_loopback_is_refused(server: ServeProcess, pages: FixtureServer) -> None:
    port = pages.server_address[1]
    answer = server.request("GET", f"/http://{loopback_name()}:{port}/demo/", headers=AUTH)
    assert answer.status == 403 and answer.error["kind"] == "BlockedAddressError"
    assert "loopback" in answer.error["message"]


def test_the_fixture_itself_is_refused_while_the_guard_is_on(
    server: ServeProcess, pages: FixtureServer
) -> None:
    answer = server.request("POST", "/v1/compare", {"url": f"{pages.base}/demo/"}, AUTH)
    assert answer.status == 403 and answer.error["kind"] == "BlockedAddressError"
    batch = server.request("POST", "/v1/batch", {"urls": [f"{pages.base}/demo/"]}, AUTH)
    lines = server.request("GET", batch.json()["url"], headers=AUTH).text
    assert '"status": "blocked-address"' in lines


def test_file_urls_are_not_targets(server: ServeProcess) -> None:
    answer = server.request("POST", "/v1/extract", {"url": "file:///etc/passwd"}, AUTH)
    assert answer.status == 400 and answer.error["kind"] == "BadRequest"


def test_the_page_has_no_private_banner_data(server: ServeProcess) -> None:
    info = server.request("GET", "/v1/info", headers=AUTH).json()
    assert info["allow_private"] is False


@pytest.fixture(scope="module")
def public_pages() -> Iterator[FixtureServer]:
    try:
        server = FixtureServer("127.0.0.2")
    except OSError:
        pytest.skip("cannot listen on 127.0.0.2 here")
    yield server
    server.close()


def test_a_redirect_to_a_private_address_is_refused(
    tmp_path_factory: pytest.TempPathFactory, public_pages: FixtureServer, pages: FixtureServer
) -> None:
    public = start_serve(
        tmp_path_factory.mktemp("serve-public"),
        launcher=[sys.executable, "-m", "tests.serve.public_launcher"],
    )
    try:
        port = public_pages.server_address[1]
        start = f"http://public.test:{port}"
        control = public.request("GET", f"/{start}/demo/")  # a public page renders
        assert control.status == 200, control.body
        for render in ("false", "true"):
            answer = public.request(
                "GET",
                f"/{start}/redirect?to={pages.base}/demo/",
                headers={"X-No-Render": render},
            )
            assert answer.status == 403, (render, answer.body)
            assert answer.error["kind"] == "BlockedAddressError"
            assert "redirect" in answer.error["message"] or "127.0.0.1" in answer.error["message"]
    finally:
        assert public.stop() == 0


PUBLIC_LITERAL = "http://1.1.1.1/"
"""A public address the guard lets through as a target. Nothing is ever sent to it: the
proxy is refused first, and the test's proxy forwards to 127.0.0.1 only in any case."""


def test_a_private_proxy_is_refused(server: ServeProcess) -> None:
    with forward_proxy() as proxy:
        for render in (False, True):
            body = {"url": PUBLIC_LITERAL, "render": render, "proxy": proxy.url, "cache": False}
            answer = server.request("POST", "/v1/extract", body, AUTH)
            assert answer.status == 403, answer.body
            assert answer.error["kind"] == "BlockedAddressError"
            assert "127.0.0.1" in answer.error["message"]
        batch = {"urls": [PUBLIC_LITERAL], "proxy": proxy.url, "user_agent": "X/1"}
        refused = server.request("POST", "/v1/batch", batch, AUTH)
        assert refused.status == 403 and refused.error["kind"] == "BlockedAddressError"
    assert proxy.seen == []  # never used


class _PublicPage(http.server.BaseHTTPRequestHandler):
    """A page on 127.0.0.2 (public to the launcher's guard) linking to ``private``."""

    private = ""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        body = (
            "<!doctype html><html><head><title>Links</title></head><body><article>"
            f"<h1>Links</h1><p>{'A public page with one link to a private one. ' * 8}</p>"
            f'<a id="go" href="{self.private}">private</a></article></body></html>'
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_actions_cannot_reach_a_private_address(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    try:
        page = http.server.ThreadingHTTPServer(("127.0.0.2", 0), _PublicPage)
    except OSError:
        pytest.skip("cannot listen on 127.0.0.2 here")
    threading.Thread(target=page.serve_forever, daemon=True).start()
    public = start_serve(
        tmp_path_factory.mktemp("serve-actions"),
        launcher=[sys.executable, "-m", "tests.serve.public_launcher"],
    )
    try:
        with serve(Site()) as private:
            private.routes["/secret"] = html(article("Secret"))
            _PublicPage.private = private.base + "/secret"
            start = f"http://public.test:{page.server_address[1]}/"
            steps = [{"click": "#go"}, {"wait_for": "#never-there"}]
            answer = public.request(
                "POST", "/v1/extract", {"url": start, "actions": steps, "cache": False}
            )
            assert answer.status == 200, answer.body  # the public page, as it was
            data = answer.json()
            clicks = [e["reason"] for e in data["trace"] if e["name"] == "action"]
            assert clicks == ["1: click #go"]  # the click ran and tried to leave
            assert any(f"tried to go to {private.base}" in w for w in data["warnings"])
            assert "Secret" not in answer.text
            assert private.requests == []  # and nothing reached the private address
    finally:
        page.shutdown()
        page.server_close()
        assert public.stop() == 0
