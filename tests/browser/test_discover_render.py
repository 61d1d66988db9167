"""A crawl through rendered pages sees links that only exist after JavaScript has run; the
same crawl without a browser does not; and a rendered crawl feeding the batch renders each
page once, with the plain batch's result. The site is served on 127.0.0.1."""

from __future__ import annotations

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from renderer.browser.options import RenderOptions
from renderer.cli import main
from renderer.discover import DiscoverOptions, Sources, discover
from tests.sites_server import Site, article, html, serve, xml

pytestmark = pytest.mark.browser

SCRIPTED_HOME = b"""<!doctype html><html><head><title>Home</title></head><body>
<main id="list"><h1>Home</h1><p>The posts are listed by the script below.</p></main>
<script>
  for (const slug of ["first-post", "second-post"]) {
    const link = document.createElement("a");
    link.href = "/posts/" + slug;
    link.textContent = slug;
    document.getElementById("list").append(link);
  }
</script></body></html>"""


def test_rendered_crawl_finds_links_made_by_javascript() -> None:
    with serve(Site()) as site:
        site.routes["/"] = html(SCRIPTED_HOME)
        for slug in ("first-post", "second-post"):
            site.routes[f"/posts/{slug}"] = html(article(slug))
        sources = Sources(crawls=(site.base + "/",))
        render_options = RenderOptions(block_private=False, budget=60.0)

        def crawl(render: bool) -> list[str]:
            options = DiscoverOptions(
                render=render, render_options=render_options, robots=None, delay=0
            )
            return [url.removeprefix(site.base) for url in discover(sources, options, notes=print)]

        assert crawl(render=False) == ["/"]
        assert crawl(render=True) == ["/", "/posts/first-post", "/posts/second-post"]


def _main(*args: str) -> int:
    """``readermode ARGS`` in this process, on a thread of its own (a sync Playwright fixture
    may leave an event loop running on the test's thread)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(main, list(args)).result()


def test_a_rendered_crawl_renders_each_page_once(tmp_path: Path) -> None:
    """Also: the feed the start page announces gives a page no link leads to, and it is
    rendered once too. A snapshot keeps no feed links, so the crawl GETs the start page as
    served (our static User-Agent) to read its head: not a render."""
    pages = ["/", "/posts/first-post", "/posts/second-post", "/posts/only-in-the-feed"]
    feed_link = b'<link rel="alternate" type="application/atom+xml" href="/atom.xml"></head>'
    with serve(Site()) as site:
        site.routes["/"] = html(SCRIPTED_HOME.replace(b"</head>", feed_link))
        site.routes["/atom.xml"] = xml(
            '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id>'
            f'<link href="{site.base}/posts/only-in-the-feed"/></entry></feed>'
        )
        for page in pages[1:]:
            site.routes[page] = html(article(page.removeprefix("/posts/")))
        common = ("--delay", "0", "--timeout", "60", "--no-sitewide", "--ignore-robots")
        crawled = tmp_path / "crawled.jsonl"
        assert _main("--crawl", site.base + "/", *common, "-o", str(crawled)) == 0
        rendered = Counter(
            path for path, headers in site.requests if "HeadlessChrome" in headers["user-agent"]
        )
        served = [path for path, headers in site.requests if "static" in headers["user-agent"]]
        plain = tmp_path / "plain.jsonl"  # the same pages as a plain batch, for comparison
        assert _main(*(site.base + page for page in pages), *common, "-o", str(plain)) == 0
    # each page rendered once: the batch took the crawl's render
    assert {path: n for path, n in rendered.items() if path in pages} == dict.fromkeys(pages, 1)
    assert sorted(served) == ["/", "/atom.xml"]
    records = {r["target"]: r for r in map(json.loads, crawled.read_text().splitlines())}
    assert sorted(records) == sorted(site.base + page for page in pages)
    for expected in map(json.loads, plain.read_text().splitlines()):
        record = records[expected["target"]]
        assert record["ok"] and record["title"] == expected["title"]
        assert record["markdown"] == expected["markdown"]
