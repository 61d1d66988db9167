"""URL normalising and filtering for discovery, the way courlan does it for trafilatura.

courlan's own ``check_url`` refuses IP addresses and ``localhost`` (it is made for the open
web), so its parts are used one by one: ``normalize_url`` (lower-cased host, sorted query,
tracking parameters and fragments gone), ``type_filter`` (tag, category, archive, feed,
author and media pages, ``strict``), ``is_not_crawlable`` (login, register, cart, share) and
``extension_filter`` (files that are not pages). Only the scheme and host checks are ours.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit, urlunsplit

from courlan.clean import normalize_url
from courlan.filters import extension_filter, is_not_crawlable, type_filter

MAX_QUERY_VARIANTS = 5
"""Distinct query strings kept per path: ``/list?page=1..N``, ``/cal?day=...`` and session-id
variants are the usual crawler traps; five keep real pagination's first pages."""

_TRAPS = re.compile(
    r"/(?:calendar|events?)/\d{4}[-/]\d{1,2}|[?&](?:month|day|date)=|/(?:share|sharer|print)\b",
    re.I,
)
"""Calendar and share traps courlan's filters let through (date-indexed pages without end,
share and print views of a page already listed)."""


def normalise(url: str, base: str | None = None) -> str | None:
    """``url`` (relative to ``base``) as an absolute, normalised http(s) URL, or None."""
    try:
        absolute = urljoin(base, url.strip()) if base else url.strip()
        parts = urlsplit(absolute)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            return None
        parts.port  # noqa: B018 - a port that is no number raises ValueError
        # not strict: strict keeps only a list of known query keys, and real pagination
        # (?p=2) would collapse; MAX_QUERY_VARIANTS bounds query-string loops instead
        clean = normalize_url(parts)
    except ValueError:
        return None
    # courlan keeps an empty path as ''; one spelling per page
    parts = urlsplit(clean)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", parts.query, ""))


def is_trap(url: str, *, with_nav: bool = False) -> bool:
    """A page no reader came for: login, share, tag/category/archive lists, calendars, media.
    ``with_nav``: lists (tags, categories, pagination) pass, for a crawl to follow their links."""
    return (
        not type_filter(url, strict=True, with_nav=with_nav)
        or is_not_crawlable(url)
        or not extension_filter(url)
        or bool(_TRAPS.search(url))
    )


@dataclass
class UrlFilter:
    """The discovery filter: ``--include``/``--exclude`` regular expressions (searched in the
    whole URL), the trap filter, one URL once, and at most ``MAX_QUERY_VARIANTS`` query
    strings per path."""

    include: re.Pattern[str] | None = None
    exclude: re.Pattern[str] | None = None
    filter_traps: bool = True
    seen: set[str] = field(default_factory=set)
    variants: Counter[str] = field(default_factory=Counter)

    def admit(self, url: str) -> bool:
        """True the first time a URL passes every filter (and it is then remembered)."""
        if url in self.seen:
            return False
        if self.include is not None and not self.include.search(url):
            return False
        if self.exclude is not None and self.exclude.search(url):
            return False
        if self.filter_traps and is_trap(url):
            return False
        parts = urlsplit(url)
        if parts.query:
            path = f"{parts.netloc}{parts.path}"
            if self.variants[path] >= MAX_QUERY_VARIANTS:
                return False
            self.variants[path] += 1
        self.seen.add(url)
        return True


def same_site(url: str, start: str) -> bool:
    """Same host and port, ``www.`` ignored: what a site crawl stays on."""

    def key(value: str) -> str:
        return urlsplit(value).netloc.lower().removeprefix("www.")

    return key(url) == key(start)
