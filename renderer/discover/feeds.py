"""RSS and Atom feeds, parsed by feedparser from bytes we fetched (feedparser never fetches:
it is handed bytes, never a URL string, which it would download itself)."""

from __future__ import annotations

import feedparser

from extractor import InputError
from renderer.discover.fetcher import DiscoveryFetcher

_ACCEPT = "application/rss+xml,application/atom+xml,application/xml;q=0.9,*/*;q=0.1"


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


def feed_urls(url: str, fetcher: DiscoveryFetcher) -> list[str]:
    """The links of the feed at ``url``."""
    return parse_feed(fetcher.get(url, accept=_ACCEPT).body, url)
