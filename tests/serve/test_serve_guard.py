"""Safe by default: a real ``readermode serve`` with the private-network guard on (no
``--allow-private`` anywhere here) and a token."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator

import pytest

from tests.serve.harness import FixtureServer, ServeProcess, start_serve

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
