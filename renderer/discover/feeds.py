"""RSS and Atom feeds, parsed by feedparser from bytes we fetched (feedparser never fetches:
it is handed bytes, never a URL string, which it would download itself).

Auto-discovery: a ``--feed`` URL that answers an HTML page is read for the feeds it
announces (``<link rel="alternate" type="application/rss+xml">`` or ``atom+xml``, the RSS
Advisory Board's autodiscovery convention), and those feeds are read instead. feedparser
has no autodiscovery of its own, so the links are found with lxml, as the crawl's are.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import feedparser
import lxml.html

from extractor import InputError, ReadermodeError
from renderer.discover.fetcher import DiscoveryFetcher
from renderer.discover.urls import normalise

_ACCEPT = "application/rss+xml,application/atom+xml,application/xml;q=0.9,*/*;q=0.1"

FEED_TYPES = ("application/rss+xml", "application/atom+xml")
"""The ``type`` of a ``<link rel=alternate>`` that announces a feed."""

MAX_FEED_LINKS = 4
"""Feeds read from one HTML page: the site's posts and comments feeds, maybe a category or
two; a page announcing dozens (one per tag) does not cost dozens of fetches."""

HTML_SNIFF_BYTES = 1024
"""How much of a body is looked at to tell an HTML page from a feed."""

_LOOKS_HTML = re.compile(rb"<!doctype\s+html|<html[\s>]", re.IGNORECASE)
_LOOKS_FEED = re.compile(rb"<(rss|feed|rdf:rdf)[\s>]", re.IGNORECASE)

Note = Callable[[str], None]


def parse_feed(body: bytes, url: str) -> list[str]:
    """The entries' links of a feed, in feed order (InputError when it is not a feed)."""
    parsed = feedparser.parse(body, response_headers={"content-location": url})
    links: list[str] = []
    for entry in parsed.entries:
        link = entry.get("link") or next(
            (item.get("href") for item in entry.get("links", []) if item.get("href")), None
        )
        if isinstance(link, str) and link:
            links.append(link)
    if not links:
        if parsed.get("bozo") and not parsed.get("version"):
            reason = parsed.get("bozo_exception")
            raise InputError(f"{url} is not an RSS or Atom feed ({reason})")
        if not parsed.entries:
            raise InputError(f"{url}: the feed has no entries")
    return links


def looks_like_html(body: bytes) -> bool:
    """An HTML page rather than a feed: a doctype or ``<html>`` first, and no feed root."""
    head = body[:HTML_SNIFF_BYTES]
    return bool(_LOOKS_HTML.search(head)) and not _LOOKS_FEED.search(head)


def feed_links(html: str | bytes, base: str) -> list[str]:
    """The feeds a page announces (absolute, normalised, once each, at most MAX_FEED_LINKS)."""
    try:
        root = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return []
    base_href = str(root.xpath("string(//base/@href)") or base)
    found: list[str] = []
    for link in root.iter("link"):
        rel = (link.get("rel") or "").lower().split()
        kind = (link.get("type") or "").split(";")[0].strip().lower()
        href = link.get("href")
        if "alternate" in rel and kind in FEED_TYPES and href:
            url = normalise(href, base_href)
            if url is not None and url not in found:
                found.append(url)
    return found[:MAX_FEED_LINKS]


def feed_urls(url: str, fetcher: DiscoveryFetcher, *, notes: Note | None = None) -> list[str]:
    """The links of the feed at ``url``; when ``url`` is an HTML page, of the feeds it
    announces (InputError when it announces none)."""
    page = fetcher.get(url, accept=_ACCEPT)
    if not looks_like_html(page.body):
        return parse_feed(page.body, url)
    feeds = feed_links(page.body, page.final_url)
    if not feeds:
        raise InputError(
            f"{url} is an HTML page that announces no RSS or Atom feed "
            '(no <link rel="alternate" type="application/rss+xml">)'
        )
    if notes is not None:
        notes(f"--feed {url}: an HTML page; reading the feeds it announces: {', '.join(feeds)}")
    return entries_of(feeds, fetcher, notes=notes)


def entries_of(feeds: list[str], fetcher: DiscoveryFetcher, *, notes: Note | None) -> list[str]:
    """The entries of every feed in ``feeds``, in order; a feed that fails is a note when
    another can still give entries, else its error."""
    links: list[str] = []
    errors: list[ReadermodeError] = []
    for feed in feeds:
        try:
            links += parse_feed(fetcher.get(feed, accept=_ACCEPT).body, feed)
        except ReadermodeError as exc:
            errors.append(exc)
            if notes is not None:
                notes(f"feed {feed}: {exc}")
    if not links and errors:
        raise errors[0]
    return links


def announced_entries(
    url: str, html: str | None, fetcher: DiscoveryFetcher, *, accept: str, notes: Note
) -> list[str]:
    """The entries of the feeds the page at ``url`` announces, for a crawl's start page.
    ``html`` None: the page is fetched as served (a rendered snapshot keeps no ``<link
    rel=alternate>`` in its head). Never fails the crawl: what goes wrong is a note."""
    try:
        if html is None:
            page = fetcher.get(url, accept=accept)
            feeds = feed_links(page.body, page.final_url)
        else:
            feeds = feed_links(html, url)
        return entries_of(feeds, fetcher, notes=notes) if feeds else []
    except ReadermodeError as exc:
        notes(f"crawl: the feeds {url} announces: {exc}")
        return []
