"""Sitemaps (sitemaps.org): ``urlset`` and ``sitemapindex`` files, gzip, text sitemaps, and a
site's ``robots.txt`` ``Sitemap:`` lines, read with lxml's incremental parser.

Our own reader, not ultimate-sitemap-parser: USP fetches by itself (requests), which would go
around the private-network guard and the robots.txt and delay politeness every other fetch
takes; here the fetching is ``DiscoveryFetcher``'s and the parsing a streaming pass over bytes.

Bounded everywhere: one file's size (``DISCOVERY_MAX_BYTES``), its URLs
(``MAX_SITEMAP_URLS``), the index nesting (``MAX_SITEMAP_DEPTH``) and the files read
(``MAX_SITEMAP_FILES``). A file that is HTML, not XML or not a sitemap is one note; when no
file gave a URL, the first such error is raised.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from io import BytesIO
from typing import Literal
from urllib.parse import urlsplit

from lxml import etree

from extractor import InputError, ReadermodeError
from renderer.discover.fetcher import DiscoveryFetcher
from renderer.fetch.robots import RobotsPolicy

MAX_SITEMAP_URLS = 50_000
"""URLs read from one file: the protocol's own cap per sitemap."""

MAX_SITEMAP_DEPTH = 2
"""Index files inside index files: the protocol allows none, real sites use one level; an
index nested deeper (a generator that links to itself) is not followed."""

MAX_SITEMAP_FILES = 500
"""Sitemap files read in one run (an index may list 50,000): enough for big news sites."""

SitemapKind = Literal["urlset", "index"]
Note = Callable[[str], None]

_HTML = re.compile(rb"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S)
_ACCEPT = "application/xml,text/xml;q=0.9,application/gzip;q=0.8,text/plain;q=0.5,*/*;q=0.1"


def parse_sitemap(body: bytes, url: str) -> tuple[SitemapKind, list[str]]:
    """The kind of sitemap ``body`` is and the ``<loc>`` URLs in it (InputError if none)."""
    head = body.lstrip(b"\xef\xbb\xbf \t\r\n")[:2048]
    if _HTML.match(head):
        raise InputError(f"{url} is an HTML page, not a sitemap")
    if not head.startswith(b"<"):
        return "urlset", _text_sitemap(body, url)
    kind: SitemapKind | None = None
    locs: list[str] = []
    events = etree.iterparse(
        BytesIO(body),
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
    )
    try:
        for event, element in events:
            name = etree.QName(element).localname if isinstance(element.tag, str) else ""
            if kind is None:
                if name not in ("urlset", "sitemapindex"):
                    raise InputError(f"{url} is XML but not a sitemap (root <{name}>)")
                kind = "urlset" if name == "urlset" else "index"
            elif event == "end" and name == "loc" and element.text and element.text.strip():
                locs.append(element.text.strip())
                if len(locs) >= MAX_SITEMAP_URLS:
                    break
            elif event == "end" and name in ("url", "sitemap"):
                element.clear()  # streaming: a 50 MB file is never held as a tree
    except etree.XMLSyntaxError as exc:
        if not locs:
            raise InputError(f"{url} is not a well-formed sitemap: {exc}") from None
    assert kind is not None or not locs
    return kind or "urlset", locs


def _text_sitemap(body: bytes, url: str) -> list[str]:
    lines = [line.strip() for line in body.decode("utf-8", "replace").splitlines()]
    urls = [line for line in lines if line]
    if not urls or any(urlsplit(line).scheme not in ("http", "https") for line in urls[:20]):
        raise InputError(f"{url} is neither an XML sitemap nor a text sitemap (one URL a line)")
    return urls[:MAX_SITEMAP_URLS]


def sitemap_roots(start: str, fetcher: DiscoveryFetcher) -> list[str]:
    """The sitemap files to start from: ``start`` itself when it names a file, else the
    site's robots.txt ``Sitemap:`` lines, else ``/sitemap.xml``."""
    parts = urlsplit(start)
    if parts.path not in ("", "/"):
        return [start]
    robots = fetcher.robots or RobotsPolicy(guard=fetcher.guard, user_agent=fetcher.user_agent)
    listed = robots.sitemaps(start)
    return listed or [f"{parts.scheme}://{parts.netloc}/sitemap.xml"]


def sitemap_urls(start: str, fetcher: DiscoveryFetcher, *, limit: int, notes: Note) -> list[str]:
    """Page URLs of ``start``'s sitemaps, index files followed, at most ``limit``."""
    queue = deque((root, 0) for root in sitemap_roots(start, fetcher))
    visited: set[str] = set()
    found: list[str] = []
    first_error: ReadermodeError | None = None
    while queue and len(found) < limit:
        url, depth = queue.popleft()
        if url in visited:
            continue
        if len(visited) >= MAX_SITEMAP_FILES:
            notes(f"sitemaps: stopped after {MAX_SITEMAP_FILES} files (MAX_SITEMAP_FILES)")
            break
        visited.add(url)
        try:
            kind, locs = parse_sitemap(fetcher.get(url, accept=_ACCEPT).body, url)
        except ReadermodeError as exc:
            notes(f"sitemap {url}: {exc}")
            first_error = first_error or exc
            continue
        if kind == "urlset":
            found += locs[: limit - len(found)]
        elif depth >= MAX_SITEMAP_DEPTH:
            notes(f"sitemap {url}: index nested deeper than {MAX_SITEMAP_DEPTH}, not followed")
        else:
            queue.extend((loc, depth + 1) for loc in locs)
    if not found and first_error is not None:
        raise first_error
    return found
