"""The endpoints of a real ``readermode serve`` (guard off: these tests are about rendering
pages served on 127.0.0.1), with its cache on."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator

import pytest

from tests.browser.test_request_controls_render import REVEAL
from tests.held import HeldResponse
from tests.serve.harness import FixtureServer, ServeProcess, start_serve
from tests.sites_server import Site, article, forward_proxy, html, serve

pytestmark = pytest.mark.browser

DEMO_TITLE = "How Lanthorn Vale switched off its streetlights and got its stars back"
ARTICLE = (
    "<html><head><title>Posted page</title></head><body><nav>Home · About</nav><article>"
    "<h1>Posted page</h1>"
    + "<p>A posted paragraph about tide pools and the creatures that live in them.</p>" * 5
    + "</article></body></html>"
)
BODY_CAP = 100_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    tmp = tmp_path_factory.mktemp("serve-api")
    process = start_serve(
        tmp, "--allow-private", "--cache", str(tmp / "cache"), "--timeout", "60",
        "--max-body-bytes", str(BODY_CAP),
    )
    yield process
    assert process.stop() == 0


def test_get_url_gives_markdown_by_default(server: ServeProcess, pages: FixtureServer) -> None:
    answer = server.get(f"/{pages.base}/demo/", X_No_Cache="true")
    assert answer.status == 200, answer.body
    assert answer.headers["content-type"].startswith("text/markdown")
    assert answer.text.startswith(f"# {DEMO_TITLE}")
    assert "Milky Way" in answer.text
    assert answer.headers["x-cache"] == "BYPASS"


def test_get_url_formats_by_header_and_accept(server: ServeProcess, pages: FixtureServer) -> None:
    as_json = server.get(f"/{pages.base}/demo/", Accept="application/json")
    assert as_json.status == 200
    data = as_json.json()
    assert data["title"] == DEMO_TITLE and data["stage"] and data["trace"]
    text = server.get(f"/{pages.base}/demo/", X_Return_Format="text", X_No_Render="true")
    assert text.headers["content-type"].startswith("text/plain")
    html = server.get(f"/{pages.base}/demo/", X_Return_Format="html")
    assert "<script" not in html.text and "<p>" in html.text
    assert "sandbox" in html.headers["content-security-policy"]
    bad = server.get(f"/{pages.base}/demo/", X_Return_Format="pdf")
    assert bad.status == 400 and bad.error["kind"] == "BadRequest"


def test_post_extract_html_and_url(server: ServeProcess, pages: FixtureServer) -> None:
    posted = server.post("/v1/extract", {"html": ARTICLE, "formats": ["markdown", "text"]})
    assert posted.status == 200, posted.body
    data = posted.json()
    assert data["title"] == "Posted page" and "tide pools" in data["markdown"]
    assert "html" not in data and "Home" not in data["text"]
    scorer = server.post("/v1/extract", {"html": ARTICLE, "stages": ["scorer"]}).json()
    assert scorer["stage"] == "scorer"
    short = server.post("/v1/extract", {"html": ARTICLE, "min_length": 10_000})
    assert short.status == 422 and short.error["kind"] == "ContentTooShortError"
    shot = server.post(
        "/v1/extract",
        {"url": f"{pages.base}/hydration/", "formats": ["json", "screenshot"], "cache": False},
    )
    assert shot.status == 200, shot.body
    data = shot.json()
    assert data["html"] and data["markdown"] and data["text"]
    assert base64.b64decode(data["screenshot"])[:8] == b"\x89PNG\r\n\x1a\n"


def test_wait_for_selector(server: ServeProcess, pages: FixtureServer) -> None:
    answer = server.post(
        "/v1/extract",
        {"url": f"{pages.base}/demo/", "wait_for": "#never-there", "timeout": 3, "cache": False},
    )
    assert answer.status == 200, answer.body
    assert any("#never-there" in warning for warning in answer.json()["warnings"])
    invalid = server.post("/v1/extract", {"url": f"{pages.base}/demo/", "wait_for": "[[", "cache": False})
    assert invalid.status == 422 and invalid.error["kind"] == "InputError"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (json.dumps({"url": "http://x.test/", "formats": ["pdf"]}).encode(), "unknown format"),
        (json.dumps({"url": "ftp://x.test/"}).encode(), "http(s) URL"),
        (json.dumps({"html": ARTICLE, "timeout": -1}).encode(), "timeout"),
        (json.dumps({"html": ARTICLE, "keep": ["nonsense"]}).encode(), "unknown rule"),
        (json.dumps({}).encode(), "give"),
        (json.dumps({"html": ARTICLE, "stages": ["nope"]}).encode(), "unknown stage"),
        (b"[" * 40_000 + b"]" * 40_000, "nested"),
    ],
)
def test_bad_requests_are_json_400s(server: ServeProcess, body: bytes, message: str) -> None:
    answer = server.post("/v1/extract", body)
    assert answer.status == 400
    error = answer.error
    assert error["kind"] == "BadRequest" and error["exit_code"] == 2 and message in error["message"]


def test_oversized_body_is_413(server: ServeProcess) -> None:
    big = json.dumps({"html": "<p>x</p>" * BODY_CAP}).encode()
    answer = server.post("/v1/extract", big)
    assert answer.status == 413
    assert answer.error["kind"] == "InputTooLargeError" and answer.error["exit_code"] == 6


def test_unknown_routes_and_methods_are_json(server: ServeProcess) -> None:
    missing = server.get("/v1/reports/no-such-id")
    assert missing.status == 404 and missing.error["kind"] == "NotFound"
    wrong = server.get("/v1/extract")
    assert wrong.status in (404, 405)
    assert wrong.error["kind"] in ("NotFound", "MethodNotAllowed")
    not_url = server.get("/favicon.ico")
    assert not_url.status == 400 and not_url.error["kind"] == "BadRequest"


def test_error_kinds_map_to_statuses(server: ServeProcess, pages: FixtureServer) -> None:
    gone = server.get(f"/{pages.base}/no-such-page", X_No_Render="true")
    assert gone.status == 502
    assert gone.error["kind"] == "HTTPStatusError" and gone.error["exit_code"] == 11
    empty = server.post("/v1/extract", {"html": "<html><body></body></html>"})
    assert empty.status == 422 and empty.error["exit_code"] in (5, 15)


def test_a_page_that_hangs_ends_in_its_budget(server: ServeProcess, pages: FixtureServer) -> None:
    pages.held = HeldResponse()
    try:
        answer = server.get(f"/{pages.base}/held/hang", X_Timeout="2", X_No_Cache="1")
    finally:
        pages.held.release()
    assert answer.status == 504, answer.body
    assert answer.error["kind"] == "BudgetExceededError" and answer.error["exit_code"] == 12


def test_cache_hit_shows_in_headers_and_metrics(server: ServeProcess, pages: FixtureServer) -> None:
    path = f"/{pages.base}/demo/?cache-test=1"
    hits = server.metric("readermode_cache_hits_total")
    first = server.get(path, X_No_Render="true")
    second = server.get(path, X_No_Render="true")
    assert (first.headers["x-cache"], second.headers["x-cache"]) == ("MISS", "HIT")
    assert second.body == first.body and "age" in second.headers
    assert server.metric("readermode_cache_hits_total") == hits + 1
    bypass = server.get(path, X_No_Render="true", X_No_Cache="true")
    assert bypass.headers["x-cache"] == "BYPASS"
    other = server.get(path, X_No_Render="true", X_Return_Format="text")
    assert other.headers["x-cache"] == "MISS"  # the format is part of the key


def test_compare_and_its_report(server: ServeProcess, pages: FixtureServer) -> None:
    answer = server.post("/v1/compare", {"url": f"{pages.base}/demo/"})
    assert answer.status == 200, answer.body
    data = answer.json()
    assert data["comparison"]["reader_view"]["found"] and data["comparison"]["scores"]["f1"] > 0.5
    report = server.get(data["report_url"])
    assert report.status == 200 and "<html" in report.text.lower()
    assert DEMO_TITLE in report.text and "<script" not in report.text.lower()
    assert len(data["report_id"]) >= 20  # not guessable


def test_batch_progress_and_streamed_results(server: ServeProcess, pages: FixtureServer) -> None:
    urls = [f"{pages.base}/demo/", f"{pages.base}/hydration/", f"{pages.base}/no-such-page"]
    started = server.post("/v1/batch", {"urls": urls, "formats": ["text"], "delay": 0})
    assert started.status == 202, started.body
    batch = started.json()["url"]
    lines = [json.loads(line) for line in server.get(batch).text.splitlines()]
    assert sorted(line["target"] for line in lines) == sorted(urls)
    ok = [line for line in lines if line["ok"]]
    assert len(ok) == 2 and all("text" in line and "markdown" not in line for line in ok)
    failed = [line for line in lines if not line["ok"]]
    assert failed[0]["status"] == "http-status" and failed[0]["exit_code"] == 11
    progress = server.get(batch, Accept="application/json").json()
    assert progress == {"total": 3, "done": 3, "failed": 1, "finished": True}
    assert server.post("/v1/batch", {"urls": []}).status == 400


def test_healthz_metrics_and_openapi(server: ServeProcess) -> None:
    assert server.get("/healthz").json() == {"status": "ok", "browser": True}
    assert server.get("/http://no-such-host.invalid:1/a-page", X_No_Render="1").status == 502
    metrics = server.get("/metrics").text
    for name in ("readermode_requests_total", "readermode_request_seconds_bucket",
                 "readermode_pages_in_flight", "readermode_queue_length",
                 "readermode_browser_restarts_total", "readermode_failures_total",
                 "readermode_cache_hits_total"):
        assert name in metrics
    assert 'endpoint="/{url}"' in metrics  # routes, never the URLs asked for
    spec = server.get("/openapi.json").json()
    assert {"/{url}", "/v1/extract", "/v1/compare", "/v1/batch", "/healthz", "/metrics"} <= set(spec["paths"])
    controls = {"user_agent", "headers", "cookies", "proxy", "locale", "viewport", "wait_for",
                "actions"}
    for path in ("/v1/extract", "/v1/batch"):
        body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert controls <= set(body["schema"]["properties"]), path
    docs = server.get("/docs")
    assert docs.status == 200 and "openapi.json" in docs.text


def test_openapi_names_every_route_and_only_those() -> None:
    from starlette.routing import Route

    from renderer.serve.app import build_app
    from renderer.serve.config import ServeConfig

    app = build_app(ServeConfig())
    api_routes = {
        "/{url}" if route.path == "/{target:path}" else route.path
        for route in app.routes
        if isinstance(route, Route) and route.path not in ("/", "/docs", "/openapi.json")
    }
    from renderer.serve.openapi import openapi_spec

    assert api_routes == set(openapi_spec()["paths"])


def _seen(site: Site, path: str) -> dict[str, str]:
    """The headers of the first request ``site`` saw for ``path``."""
    return next(headers for seen, headers in site.requests if seen == path)


CONTROLS = {
    "user_agent": "TestBot/2.0",
    "headers": {"X-Token": "t0k"},
    "cookies": [{"name": "sid", "value": "42", "domain": "127.0.0.1"}],
    "locale": "de-DE",
    "cache": False,
}


def test_request_controls_reach_the_page_on_both_paths(server: ServeProcess) -> None:
    with serve(Site()) as site:
        site.routes["/s"] = html(article("Static"))
        site.routes["/r"] = html(REVEAL)
        static = server.post("/v1/extract", {"url": site.base + "/s", "render": False, **CONTROLS})
        assert static.status == 200, static.body
        steps = [{"type": "#q", "text": "ferries"}, {"click": "#more"}, {"wait_for": "#done"}]
        rendered = server.post(
            "/v1/extract",
            {"url": site.base + "/r", "viewport": "800x600", "actions": steps,
             "formats": ["json"], **CONTROLS},
        )  # fmt: skip
        assert rendered.status == 200, rendered.body
        for path in ("/s", "/r"):
            headers = _seen(site, path)
            assert headers["user-agent"] == "TestBot/2.0" and headers["x-token"] == "t0k"
            assert headers["cookie"] == "sid=42"
            assert headers["accept-language"].startswith("de-DE")
    data = rendered.json()
    assert "for ferries, in a window 800 wide, language de-DE" in data["text"]
    actions = [entry["reason"] for entry in data["trace"] if entry["name"] == "action"]
    assert actions == ["1: type into #q", "2: click #more", "3: wait_for #done"]


def test_a_proxy_carries_extract_and_batch(server: ServeProcess) -> None:
    with serve(Site()) as site, forward_proxy() as proxy:
        for name in ("a", "b", "c"):
            site.routes[f"/{name}"] = html(article(name))
        through: dict[str, list[str]] = {}
        for render, path in ((False, "/a"), (True, "/b")):
            before = len(proxy.seen)
            answer = server.post(
                "/v1/extract",
                {"url": site.base + path, "render": render, "proxy": proxy.url, "cache": False},
            )
            assert answer.status == 200, answer.body
            through[path] = proxy.seen[before:]
        before = len(proxy.seen)
        started = server.post(
            "/v1/batch",
            {"urls": [site.base + "/c"], "proxy": proxy.url, "user_agent": "BatchBot/1",
             "delay": 0, "formats": ["text"]},
        )  # fmt: skip
        assert started.status == 202, started.body
        (line,) = [json.loads(x) for x in server.get(started.json()["url"]).text.splitlines()]
        assert line["ok"], line
        assert _seen(site, "/c")["user-agent"] == "BatchBot/1"
        through["/c"] = proxy.seen[before:]
    host = site.base.removeprefix("http://")
    assert through["/a"] == [site.base + "/a"]  # the static fetch: a GET for the URL
    for path in ("/b", "/c"):  # Chromium tunnels to the page's host
        assert f"CONNECT {host}" in through[path], through
