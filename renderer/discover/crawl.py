"""A focused crawl: one site's internal links, breadth first, bounded by pages and depth.

Pages are read by a ``PageReader``: fetched statically, or rendered in Chromium so links that
only exist after JavaScript are seen (``renderer.discover.discover`` picks). Every page goes
through the fetcher's politeness first (robots.txt, the host's delay). Listing pages (tags,
categories, pagination) are followed for their links but not collected; login, share,
calendar and media URLs are neither (``urls.is_trap``), and a path's query-string variants
stop at ``MAX_QUERY_VARIANTS``, so a crawl loop of ``?sid=`` variants ends. The entries of
the feeds the start page announces (``<link rel=alternate>``) count as its links too: a
site's newest articles, even when no page links them yet.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import lxml.html

from extractor import ReadermodeError
from renderer.discover.feeds import announced_entries
from renderer.discover.fetcher import DiscoveryFetcher
from renderer.discover.urls import UrlFilter, is_trap, normalise, same_site

PageReader = Callable[[str], tuple[str, str]]
"""``url -> (final_url, html)`` of a crawled page."""

PAGE_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
"""What a crawl asks for when it fetches a page itself."""

Note = Callable[[str], None]


@dataclass(frozen=True)
class CrawlLimits:
    """``max_pages``: pages fetched (so at most that many URLs found); ``max_depth``: links
    followed from the start page (0: the start page alone)."""

    max_pages: int
    max_depth: int


def page_links(html: str, base: str) -> list[str]:
    """The normalised http(s) targets of a page's ``<a href>`` links, ``rel=nofollow`` left out."""
    try:
        root = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return []
    base_href = root.xpath("string(//base/@href)") or base
    links = []
    for anchor in root.iter("a"):
        href = anchor.get("href")
        if not href or "nofollow" in (anchor.get("rel") or "").lower():
            continue
        if (url := normalise(href, str(base_href))) is not None:
            links.append(url)
    return links


def crawl(
    start: str,
    fetcher: DiscoveryFetcher,
    reader: PageReader,
    *,
    limits: CrawlLimits,
    url_filter: UrlFilter,
    notes: Note,
    on_found: Note | None = None,
    head_in_page: bool = True,
) -> list[str]:
    """The site's page URLs found from ``start``, in the order they were found. ``on_found``
    hears each found URL right after ``reader`` read it (so a reader can keep that page).
    ``head_in_page`` False: the reader's HTML has no head links (a rendered snapshot), so the
    start page's feed links are read from the page as served."""
    first = normalise(start)
    if first is None:
        raise ReadermodeError(f"--crawl {start}: not an http(s) URL")
    followed = UrlFilter(exclude=url_filter.exclude, filter_traps=False)
    followed.admit(first)
    queue = deque([(first, 0)])
    found: list[str] = []
    fetched = 0
    while queue and fetched < limits.max_pages:
        url, depth = queue.popleft()
        if not fetcher.allowed(url):
            notes(f"crawl: robots.txt disallows {url}: not fetched")
            continue
        fetcher.wait_turn(url)
        fetched += 1
        try:
            final_url, html = reader(url)
        except ReadermodeError as exc:
            if url == first:
                raise
            notes(f"crawl: {url}: {exc}")
            continue
        if url_filter.admit(url):
            found.append(url)
            if on_found is not None:
                on_found(url)
        if depth >= limits.max_depth:
            continue
        links = page_links(html, final_url)
        if url == first:
            served = html if head_in_page else None
            links += announced_entries(final_url, served, fetcher, accept=PAGE_ACCEPT, notes=notes)
        for link in links:
            if same_site(link, first) and not is_trap(link, with_nav=True) and followed.admit(link):
                queue.append((link, depth + 1))
    return found
