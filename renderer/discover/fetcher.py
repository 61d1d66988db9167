"""Every request discovery makes: robots.txt obeyed, one host's fetches ``delay`` apart (or its
Crawl-delay), the private-network guard, bounded in time and size, gzip decoded under a cap."""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from extractor import InputTooLargeError, RobotsDisallowedError, UndecodableInputError
from renderer.fetch.addresses import AddressGuard
from renderer.fetch.controls import RequestControls
from renderer.fetch.http import DEFAULT_TIMEOUT_S, USER_AGENT, FetchedPage, fetch_url
from renderer.fetch.robots import RobotsPolicy

DISCOVERY_MAX_BYTES = 50_000_000
"""One sitemap or feed, decompressed: the sitemaps.org protocol's own cap (50 MB, 50,000 URLs);
anything larger is refused with InputTooLargeError rather than read."""

GZIP_MAGIC = b"\x1f\x8b"

Clock = Callable[[], float]
Sleep = Callable[[float], None]


@dataclass
class DiscoveryFetcher:
    """GETs for sitemaps, feeds and crawled pages. ``robots`` None: robots.txt is not read."""

    guard: AddressGuard | None
    robots: RobotsPolicy | None
    delay: float = 1.0
    timeout: float = DEFAULT_TIMEOUT_S
    max_bytes: int = DISCOVERY_MAX_BYTES
    user_agent: str = USER_AGENT
    controls: RequestControls | None = None
    """The run's headers, cookies and proxy (``--header``, ``--cookies``, ``--proxy``)."""
    clock: Clock = time.monotonic
    sleep: Sleep = time.sleep
    _last: dict[str, float] = field(default_factory=dict)

    def allowed(self, url: str) -> bool:
        """robots.txt lets us fetch ``url`` (always, with robots off)."""
        return self.robots is None or self.robots.check(url).allowed

    def wait_turn(self, url: str) -> None:
        """Sleep until ``url``'s host may be fetched again (``delay`` or its Crawl-delay)."""
        host = urlsplit(url).netloc.lower()
        delay = self.delay
        if self.robots is not None:
            delay = max(delay, self.robots.check(url).crawl_delay or 0.0)
        last = self._last.get(host)
        if last is not None and (wait := last + delay - self.clock()) > 0:
            self.sleep(wait)
        self._last[host] = self.clock()

    def get(self, url: str, *, accept: str = "*/*", polite: bool = True) -> FetchedPage:
        """The document at ``url``, its body gunzipped when it is gzip (under ``max_bytes``).
        ``polite=False``: the caller already checked robots.txt and waited its turn."""
        if polite and self.robots is not None:
            answer = self.robots.check(url)
            if not answer.allowed:
                raise RobotsDisallowedError(answer.reason)
        if polite:
            self.wait_turn(url)
        page = fetch_url(
            url,
            timeout=self.timeout,
            max_bytes=self.max_bytes,
            guard=self.guard,
            content_types=None,
            user_agent=self.user_agent,
            accept=accept,
            controls=self.controls,
        )
        if page.body.startswith(GZIP_MAGIC):
            body = gunzip(page.body, self.max_bytes, url)
            return FetchedPage(
                url=page.url,
                final_url=page.final_url,
                status=page.status,
                body=body,
                charset=page.charset,
                content_type=page.content_type,
                headers=page.headers,
            )
        return page


def gunzip(data: bytes, max_bytes: int, what: str) -> bytes:
    """``data`` decompressed, refusing more than ``max_bytes`` (a gzip bomb stops there)."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, max_bytes + 1)
    except zlib.error as exc:
        raise UndecodableInputError(f"{what}: corrupt gzip ({exc})") from exc
    if len(out) > max_bytes:
        raise InputTooLargeError(len(out), max_bytes, f"{what} (decompressed)")
    return out
