"""An offline capture of a page served from memory: the requests it refuses anyway, refused by
Chromium itself.

Offline, every request but the page's own document is refused (``loading.route_from_memory``).
Through the route chain each refusal is a trip through the Playwright driver into Python and
back, and the page's parser waits for it on every blocking script: on the article benchmark's
pages, about 36 routed requests and some 50 ms of the capture's Python work while the page
loaded. Chromium refuses what matches the tab's blocked URL patterns (CDP
``Network.setBlockedURLs``, failure reason ``inspector``) before it would be routed: the
scripts, style sheets, images, fonts and media a page asks for by their file name.
Everything else (navigations, frames, requests without such a name) still goes through the
route chain, where a navigation away is answered 204 and the rest refused. Once Chromium has
refused ``MAX_REFUSED_IN_BROWSER`` requests the patterns are lifted: a page whose image asks
for itself again on every error (``onerror`` setting the same ``src``) made 3,280 requests
in a capture with each refusal a trip through Python, and 20,401 refused by Chromium at
once, whose events then held up the next capture.
"""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Request

from renderer.browser.pool import PageNetwork
from renderer.browser.session import REFUSED_IN_BROWSER

STATIC_EXTENSIONS = (
    *("js", "mjs", "css"),
    *("png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "ico", "bmp"),
    *("woff", "woff2", "ttf", "otf", "eot"),
    *("mp4", "webm", "mp3", "m4a", "ogg", "wasm"),
)
"""File names an offline page asks for that are never its document, each matched at the end of
a URL or before its query: scripts and style sheets (which the parser waits for), images (asked
for as the page is first laid out, each refusal through Python held the wait for a quiet
network), fonts and media."""

BLOCKED_PATTERNS = tuple(
    pattern for ext in STATIC_EXTENSIONS for pattern in (f"*.{ext}", f"*.{ext}?*")
)
"""Chromium's blocked URL patterns (``*`` matches anything, the rest is literal)."""


MAX_REFUSED_IN_BROWSER = 300
"""Requests Chromium refuses for a capture before the patterns are lifted and the rest go
through the route chain, each refusal a trip through Python that slows a loop down. The
article benchmark's pages ask for a median of about 36 requests of every kind."""


async def refuse_static_requests(network: PageNetwork, page: Page) -> None:
    """Have Chromium refuse ``page``'s static requests (``BLOCKED_PATTERNS``), until it has
    refused ``MAX_REFUSED_IN_BROWSER`` of them. Chromium leaves
    navigations out of the patterns: a page served from memory at ``/feed.js`` is still asked
    for, and answered, through the route chain (``tests/browser/test_pool.py``)."""
    try:
        await network.session.send("Network.setBlockedURLs", {"urls": list(BLOCKED_PATTERNS)})
    except PlaywrightError:
        return  # the route chain refuses them all the same
    refused = 0
    lifted: list[asyncio.Future[Any]] = []

    def count(request: Request) -> None:
        nonlocal refused
        if request.failure != REFUSED_IN_BROWSER or lifted:
            return
        refused += 1
        if refused >= MAX_REFUSED_IN_BROWSER:
            lift = asyncio.ensure_future(
                network.session.send("Network.setBlockedURLs", {"urls": []})
            )
            lift.add_done_callback(_retrieve)
            lifted.append(lift)

    page.on("requestfailed", count)


def _retrieve(done: asyncio.Future[Any]) -> None:
    if not done.cancelled():
        done.exception()  # a tab already closed: nothing left to lift
