"""--user-agent, --header, --cookies (cookies.txt and Playwright JSON), --locale and --proxy on
the static path, as the server (and a local forward proxy) saw them. All on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import RunCli
from tests.sites_server import Site, article, forward_proxy, html, serve


def test_static_fetch_sends_the_controls(run_cli: RunCli, tmp_path: Path) -> None:
    cookies_txt = tmp_path / "cookies.txt"
    cookies_txt.write_text(
        "# Netscape HTTP Cookie File\n"
        "127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tabc123\n"
        "other.example\tFALSE\t/\tFALSE\t0\tleak\tnever\n"
    )
    with serve(Site()) as site:
        site.routes["/a"] = html(article("Controls"))
        result = run_cli(
            site.base + "/a", "--no-render", "-f", "text",
            "--user-agent", "TestBot/1.0", "--header", "X-Token: s3cret",
            "--cookies", str(cookies_txt), "--locale", "de-DE",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        _, headers = site.requests[-1]
        assert headers["user-agent"] == "TestBot/1.0"
        assert headers["x-token"] == "s3cret"
        assert headers["cookie"] == "session=abc123"  # not other.example's
        assert headers["accept-language"].startswith("de-DE")


def test_playwright_cookie_json_and_proxy(run_cli: RunCli, tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text(
        json.dumps({"cookies": [{"name": "k", "value": "v", "domain": "127.0.0.1", "path": "/"}]})
    )
    with serve(Site()) as site, forward_proxy() as proxy:
        site.routes["/p"] = html(article("Proxied"))
        result = run_cli(
            site.base + "/p", "--no-render", "--cookies", str(state), "--proxy", proxy.url
        )
        assert result.returncode == 0, result.stderr
        assert proxy.seen == [site.base + "/p"]
        assert site.requests[-1][1]["cookie"] == "k=v"


def test_bad_controls_are_usage_or_input_errors(run_cli: RunCli, tmp_path: Path) -> None:
    assert run_cli("x.html", "--header", "no colon").returncode == 2
    assert run_cli("x.html", "--header", "Host: evil").returncode == 2
    assert run_cli("x.html", "--viewport", "12x9").returncode == 2
    assert run_cli("x.html", "--proxy", "ftp://p").returncode == 2
    bad = tmp_path / "cookies.txt"
    bad.write_text("not\ta cookie line\n")
    page = tmp_path / "x.html"
    page.write_text("<p>hello</p>")
    result = run_cli(str(page), "--cookies", str(bad))
    assert result.returncode == 3 and "not a cookies.txt line" in result.stderr
    actions = tmp_path / "actions.json"
    actions.write_text('[{"click": "#a", "wait": 3}]')
    result = run_cli("http://127.0.0.1:9/", "--actions", str(actions))
    assert result.returncode == 3 and "exactly one of" in result.stderr
