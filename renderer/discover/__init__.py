"""Discovery: the URLs of a site from its sitemaps (``--sitemap``), feeds (``--feed``) and
internal links (``--crawl``), normalised and filtered, for ``--list-only`` or the batch.

A rendered crawl has already rendered every page it found: with ``on_capture``, each found
page is extracted from that render (as ``AsyncRenderer.capture`` would) and handed over, so
the batch need not render it a second time."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from extractor import (
    Extraction,
    ExtractOptions,
    PageSnapshot,
    ReadermodeError,
    extract,
    snapshot_from_bytes,
)
from renderer.browser.options import RenderOptions
from renderer.browser.steps import with_action_trace
from renderer.discover.crawl import PAGE_ACCEPT, CrawlLimits, PageReader, crawl
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


Note = Callable[[str], None]
OnCapture = Callable[[str, "Extraction | ReadermodeError"], None]
"""Hears each page a rendered crawl found, as its extraction or the error extracting it."""

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_PAGES",
    "DiscoverOptions",
    "OnCapture",
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
    extract_options: ExtractOptions = field(default_factory=ExtractOptions)
    """How the pages a rendered crawl found are extracted for ``on_capture``."""


def discover(
    sources: Sources, options: DiscoverOptions, *, notes: Note, on_capture: OnCapture | None = None
) -> list[str]:
    """Every URL the sources give, once, normalised and filtered, at most ``max_pages``.
    ``on_capture`` hears each page a rendered crawl found, extracted from that render."""
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
        add(feed_urls(feed, fetcher, notes=notes), feed)
    if sources.crawls:
        limits = CrawlLimits(max_pages=options.max_pages, max_depth=options.max_depth)
        with _page_reader(fetcher, options, on_capture) as (reader, on_found):
            for start in sources.crawls:
                # the crawl filters as it goes (its own filter: the found URLs are filtered
                # again by the shared one, against what sitemaps and feeds already gave)
                own = UrlFilter(include=options.include, exclude=options.exclude)
                urls = crawl(
                    start,
                    fetcher,
                    reader,
                    limits=limits,
                    url_filter=own,
                    notes=notes,
                    on_found=on_found,
                    head_in_page=not options.render,
                )
                add(urls, start)
    if disallowed:
        notes(f"left out {disallowed} URL{'s' if disallowed != 1 else ''} robots.txt disallows")
    return found


@contextmanager
def _page_reader(
    fetcher: DiscoveryFetcher, options: DiscoverOptions, on_capture: OnCapture | None
) -> Iterator[tuple[PageReader, Note | None]]:
    """The crawl's page reader, and what it calls for each page found (None: nothing)."""
    if not options.render:

        def read_static(url: str) -> tuple[str, str]:
            page = fetcher.get(url, accept=PAGE_ACCEPT, polite=False)
            snapshot = snapshot_from_bytes(
                page.body, url=page.final_url, declared_encoding=page.charset
            )
            return page.final_url, snapshot.html

        yield read_static, None  # the batch fetches with its own caps and content types
        return
    # Imported here: a static crawl, and every sitemap or feed, never loads Playwright.
    from renderer.browser.api import Renderer

    last: dict[str, PageSnapshot] = {}  # the page just read, until the crawl says if it is kept

    with Renderer(options.render_options) as renderer:

        def read_rendered(url: str) -> tuple[str, str]:
            last.clear()
            snapshot = renderer.render(url)
            if on_capture is not None:
                last[url] = snapshot
            return snapshot.final_url or url, snapshot.html

        def found(url: str) -> None:
            snapshot = last.pop(url, None)
            if on_capture is not None and snapshot is not None:
                if (outcome := _extracted(snapshot, options)) is not None:
                    on_capture(url, outcome)

        yield read_rendered, found


def _extracted(
    snapshot: PageSnapshot, options: DiscoverOptions
) -> Extraction | ReadermodeError | None:
    """``snapshot`` extracted as ``AsyncRenderer.capture`` extracts a render, or its error."""
    extract_options = options.extract_options
    # the snapshot is already capped by max_dom_bytes: the extractor's own cap must not be lower
    if extract_options.max_bytes < options.render_options.max_dom_bytes:
        extract_options = replace(extract_options, max_bytes=options.render_options.max_dom_bytes)
    try:
        extraction = with_action_trace(extract(snapshot, options=extract_options), snapshot)
        extraction.metadata  # noqa: B018 - read now: the page's tree is not kept alive
    except ReadermodeError as exc:
        return exc
    except Exception:  # a bug: not kept, so the batch captures the page itself and says so
        return None
    return extraction
