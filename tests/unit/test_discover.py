"""renderer.discover and the politeness pieces on their own: sitemap and feed parsing, URL
filters, caps on size and nesting, robots.txt answers and Crawl-delay in the batch's
scheduler, the --seen store's age. Sites are served on 127.0.0.1 (tests/sites_server.py)."""

from __future__ import annotations

import asyncio
import gzip
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from extractor import InputError, InputTooLargeError, UndecodableInputError
from renderer.batch.runner import BatchOptions, run_batch
from renderer.batch.seen import SeenStore
from renderer.browser.options import RenderOptions
from renderer.discover import DiscoverOptions, Sources, discover
from renderer.discover.feeds import MAX_FEED_LINKS, feed_links, looks_like_html, parse_feed
from renderer.discover.fetcher import gunzip
from renderer.discover.sitemaps import parse_sitemap
from renderer.discover.urls import UrlFilter, normalise
from renderer.fetch.robots import RobotsPolicy
from tests.sites_server import Site, article, html, serve, urlset, xml

BASE = "http://127.0.0.1:9"
LOOPBACK = RenderOptions(block_private=False)  # the sites are served on 127.0.0.1


def test_parse_sitemap_kinds_and_text_sitemaps() -> None:
    kind, locs = parse_sitemap(urlset(BASE, ["/a", "/b"]).encode(), "s")
    assert (kind, locs) == ("urlset", [BASE + "/a", BASE + "/b"])
    assert parse_sitemap(f"{BASE}/x\n{BASE}/y\n".encode(), "s") == (
        "urlset",
        [BASE + "/x", BASE + "/y"],
    )
    with pytest.raises(InputError, match="not a sitemap"):
        parse_sitemap(b"<?xml version='1.0'?><rss><channel/></rss>", "s")
    with pytest.raises(InputError, match="not a well-formed sitemap"):
        parse_sitemap(b"<urlset><url><loc>", "s")
    with pytest.raises(InputError, match="neither an XML sitemap"):
        parse_sitemap(b"hello world", "s")


def test_entities_are_not_expanded() -> None:
    """A billion-laughs sitemap: lxml is told not to resolve entities, so nothing grows."""
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        b"<urlset><url><loc>http://h/&b;</loc></url></urlset>"
    )
    _, locs = parse_sitemap(bomb, "s")
    assert all(len(loc) < 50 for loc in locs)


def test_gunzip_caps_a_bomb() -> None:
    bomb = gzip.compress(b"\0" * 2_000_000)
    with pytest.raises(InputTooLargeError):
        gunzip(bomb, 100_000, "s.xml.gz")
    with pytest.raises(UndecodableInputError):
        gunzip(b"\x1f\x8bnot really", 100, "s.xml.gz")


def test_parse_feed_and_not_a_feed() -> None:
    rss = b"<rss version='2.0'><channel><item><link>http://h/1</link></item></channel></rss>"
    assert parse_feed(rss, "f") == ["http://h/1"]
    with pytest.raises(InputError, match="not an RSS or Atom feed"):
        parse_feed(b"\x00\x01 binary", "f")


def test_normalise_and_filter() -> None:
    assert normalise("/a?utm_source=x&b=1#frag", BASE + "/") == BASE + "/a?b=1"
    assert normalise("mailto:someone@example.com") is None
    assert normalise("http://h:notaport/") is None
    keep = UrlFilter(include=re.compile("/p/"), exclude=re.compile("skip"))
    assert keep.admit(BASE + "/p/1") and not keep.admit(BASE + "/p/1")  # once
    assert not keep.admit(BASE + "/q/1") and not keep.admit(BASE + "/p/skip")
    assert not keep.admit(BASE + "/p/login")
    variants = [keep.admit(f"{BASE}/p/list?sid={n}") for n in range(20)]
    assert variants.count(True) == 5


def test_a_sitemap_over_the_size_cap_is_refused_not_read() -> None:
    """The 50 MB sitemap of the issue, scaled down: the cap is DiscoverOptions.max_bytes
    (DISCOVERY_MAX_BYTES, 50 MB, by default); one over it is InputTooLargeError."""
    with serve(Site()) as site:
        site.routes["/big.xml"] = xml(urlset(site.base, [f"/p{n}" for n in range(5000)]))
        options = DiscoverOptions(max_bytes=50_000, robots=None, delay=0, render_options=LOOPBACK)
        with pytest.raises(InputTooLargeError):
            discover(Sources(sitemaps=(site.base + "/big.xml",)), options, notes=print)
        assert len(discover(
            Sources(sitemaps=(site.base + "/big.xml",)),
            DiscoverOptions(max_pages=10, robots=None, delay=0, render_options=LOOPBACK),
            notes=print,
        )) == 10  # fmt: skip


def test_robots_answers_and_crawl_delay_raises_the_batch_delay() -> None:
    with serve(Site()) as site:
        site.routes["/robots.txt"] = (
            200,
            "text/plain",
            b"User-agent: readermode\nDisallow: /no\nCrawl-delay: 7\n\nUser-agent: *\nDisallow: /\n",
        )
        notes: list[str] = []
        policy = RobotsPolicy(guard=None, notes=notes.append)
        assert policy.check(site.base + "/yes").allowed
        assert not policy.check(site.base + "/no/x").allowed
        assert policy.check(site.base + "/yes").crawl_delay == 7
        assert site.paths().count("/robots.txt") == 1  # fetched once per host

        waits: list[float] = []
        now = [0.0]

        async def sleep(seconds: float) -> None:
            waits.append(seconds)
            now[0] += seconds

        async def capture(target: str):  # noqa: ANN202 - the runner's Capture
            from extractor import extract

            return extract(article("Page").decode(), url=target)

        targets = [site.base + f"/yes/{n}" for n in range(3)]
        options = BatchOptions(delay=1, sitewide=None, robots=policy)
        batch = run_batch(
            targets,
            options,
            emit=lambda r: None,
            capture=capture,
            clock=lambda: now[0],
            sleep=sleep,
        )
        # on a thread of its own: another module's sync Playwright may run a loop on this one
        with ThreadPoolExecutor(max_workers=1) as pool:
            summary = pool.submit(asyncio.run, batch).result()
        assert summary.ok == 3
        assert waits == [7, 7]  # Crawl-delay 7 s, not --delay 1 s


def test_robots_5xx_disallows_and_404_allows() -> None:
    with serve(Site()) as failing, serve(Site()) as missing:
        failing.routes["/robots.txt"] = (503, "text/plain", b"busy")
        notes: list[str] = []
        policy = RobotsPolicy(guard=None, notes=notes.append)
        assert not policy.check(failing.base + "/a").allowed
        assert "answered 503" in notes[0]
        assert policy.check(missing.base + "/a").allowed


def test_seen_store_max_age(tmp_path: Path) -> None:
    now = [1000.0]
    with SeenStore(tmp_path / "seen.db", clock=lambda: now[0]) as store:
        store.remember("a", "http://h/a")
        now[0] += 3600
        store.remember("b", None)
        assert store.recent(["a", "b", "c"], None) == {"a", "b"}
        assert store.recent(["a", "b", "c"], 1800) == {"b"}
        store.remember("a", "http://h/a")  # captured again: young again
        assert store.recent(["a"], 1800) == {"a"}


def test_feed_links_are_the_feeds_a_page_announces() -> None:
    many = "".join(
        f'<link rel="alternate" type="application/rss+xml" href="/tag/{n}.xml">' for n in range(9)
    )
    page = (
        '<html><head><base href="http://h/blog/">'
        '<link rel="alternate stylesheet" type="text/css" href="/a.css">'
        '<link rel="alternate" type="application/atom+xml; charset=utf-8" href="atom.xml">'
        '<link rel="alternate" type="application/atom+xml" href="atom.xml#again">'
        '<link rel="alternate" hreflang="de" href="/de/">'
        f"{many}</head><body></body></html>"
    )
    links = feed_links(page, "http://ignored/")
    assert links[0] == "http://h/blog/atom.xml"  # <base href>, type parameters, one each
    assert links[1:] == [f"http://h/tag/{n}.xml" for n in range(MAX_FEED_LINKS - 1)]
    assert feed_links("", "http://h/") == []


def test_looks_like_html_tells_pages_from_feeds() -> None:
    assert looks_like_html(b"\n<!DOCTYPE html><html><head>")
    assert looks_like_html(b"<html lang=en><body>")
    assert not looks_like_html(b'<?xml version="1.0"?><rss version="2.0"><channel>')
    assert not looks_like_html(b'<feed xmlns="http://www.w3.org/2005/Atom"><content><html>')
    assert not looks_like_html(b"just words")


def test_static_page_reader_feeds_the_crawl() -> None:
    with serve(Site()) as site:
        site.routes["/"] = html(article("Home", ("/one", "/two", "https://elsewhere.example/x")))
        site.routes["/one"] = site.routes["/two"] = html(article("Leaf"))
        found = discover(
            Sources(crawls=(site.base + "/",)),
            DiscoverOptions(
                render=False, robots=None, delay=0, max_depth=1, render_options=LOOPBACK
            ),
            notes=print,
        )
        assert [url.removeprefix(site.base) for url in found] == ["/", "/one", "/two"]
