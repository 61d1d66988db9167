"""Discovery: the URLs of a site from its sitemaps (``--sitemap``), feeds (``--feed``) and
internal links (``--crawl``), normalised and filtered, for ``--list-only`` or the batch."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from extractor import snapshot_from_bytes
from renderer.browser.options import RenderOptions
from renderer.discover.crawl import CrawlLimits, PageReader, crawl
from renderer.discover.feeds import feed_urls
from renderer.discover.fetcher import DISCOVERY_MAX_BYTES, DiscoveryFetcher
from renderer.discover.sitemaps import sitemap_urls
from renderer.discover.urls import UrlFilter, normalise
from renderer.fetch.addresses import AddressGuard
from renderer.fetch.http import USER_AGENT
from renderer.fetch.robots import RobotsPolicy

DEFAULT_MAX_PAGES = 1000
"""URLs one discovery run collects (and pages a crawl fetches): a site section, not the web."""

DEFAULT_MAX_DEPTH = 3
"""Links followed from the crawl's start: home, section, list page, article."""

HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"

Note = Callable[[str], None]

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_PAGES",
    "DiscoverOptions",
    "Sources",
    "discover",
]


@dataclass(frozen=True, kw_only=True)
class Sources:
    """Where to look: sitemap, feed and crawl start URLs."""

    sitemaps: tuple[str, ...] = ()
    feeds: tuple[str, ...] = ()
    crawls: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.sitemaps or self.feeds or self.crawls)


@dataclass(frozen=True, kw_only=True)
class DiscoverOptions:
    """How to discover. ``render``: a crawl reads its pages in Chromium (links made by
    JavaScript); ``robots`` None: robots.txt is not read (``--ignore-robots``)."""

    max_pages: int = DEFAULT_MAX_PAGES
    max_depth: int = DEFAULT_MAX_DEPTH
    include: re.Pattern[str] | None = None
    exclude: re.Pattern[str] | None = None
    render: bool = True
    render_options: RenderOptions = field(default_factory=RenderOptions)
    robots: RobotsPolicy | None = None
    delay: float = 1.0
    user_agent: str = USER_AGENT
    max_bytes: int = DISCOVERY_MAX_BYTES


def discover(sources: Sources, options: DiscoverOptions, *, notes: Note) -> list[str]:
    """Every URL the sources give, once, normalised and filtered, at most ``max_pages``."""
    render_options = options.render_options
    fetcher = DiscoveryFetcher(
        guard=AddressGuard() if render_options.block_private else None,
        robots=options.robots,
        delay=options.delay,
        timeout=render_options.budget,
        max_bytes=options.max_bytes,
        user_agent=render_options.request.user_agent or options.user_agent,
        controls=render_options.request,
    )
    url_filter = UrlFilter(include=options.include, exclude=options.exclude)
    found: list[str] = []
    disallowed = 0

    def add(urls: list[str], base: str) -> None:
        nonlocal disallowed
        for url in urls:
            clean = normalise(url, base)
            if clean is None or len(found) >= options.max_pages or not url_filter.admit(clean):
                continue
            if fetcher.allowed(clean):
                found.append(clean)
            else:
                disallowed += 1

    for sitemap in sources.sitemaps:
        add(sitemap_urls(sitemap, fetcher, limit=options.max_pages, notes=notes), sitemap)
    for feed in sources.feeds:
        add(feed_urls(feed, fetcher), feed)
    if sources.crawls:
        limits = CrawlLimits(max_pages=options.max_pages, max_depth=options.max_depth)
        with _page_reader(fetcher, options) as reader:
            for start in sources.crawls:
                # the crawl filters as it goes (its own filter: the found URLs are filtered
                # again by the shared one, against what sitemaps and feeds already gave)
                own = UrlFilter(include=options.include, exclude=options.exclude)
                urls = crawl(start, fetcher, reader, limits=limits, url_filter=own, notes=notes)
                add(urls, start)
    if disallowed:
        notes(f"left out {disallowed} URL{'s' if disallowed != 1 else ''} robots.txt disallows")
    return found


@contextmanager
def _page_reader(fetcher: DiscoveryFetcher, options: DiscoverOptions) -> Iterator[PageReader]:
    if not options.render:

        def read_static(url: str) -> tuple[str, str]:
            page = fetcher.get(url, accept=HTML_ACCEPT, polite=False)
            snapshot = snapshot_from_bytes(
                page.body, url=page.final_url, declared_encoding=page.charset
            )
            return page.final_url, snapshot.html

        yield read_static
        return
    # Imported here: a static crawl, and every sitemap or feed, never loads Playwright.
    from renderer.browser.api import Renderer

    with Renderer(options.render_options) as renderer:

        def read_rendered(url: str) -> tuple[str, str]:
            snapshot = renderer.render(url)
            return snapshot.final_url or url, snapshot.html

        yield read_rendered
