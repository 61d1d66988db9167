"""An offline capture of a page served from memory: the requests it refuses anyway, refused by
Chromium itself.

Offline, every request but the page's own document is refused (``loading.route_from_memory``).
Through the route chain each refusal is a trip through the Playwright driver into Python and
back, and the page's parser waits for it on every blocking script: on the article benchmark's
pages, about 36 routed requests and some 50 ms of the capture's Python work while the page
loaded. Chromium refuses what matches the tab's blocked URL patterns (CDP
``Network.setBlockedURLs``, failure reason ``inspector``) before it would be routed: the
scripts, style sheets, images, fonts and media a page asks for by their file name. What those
patterns cannot tell apart (navigations, frames, requests without such a name) still goes
through the route chain, where a navigation away is answered 204 and the rest refused.
``blocked_in_browser`` says which URLs the patterns match.
"""

from __future__ import annotations

import re

from playwright.async_api import Error as PlaywrightError

from renderer.browser.pool import PageNetwork

STATIC_EXTENSIONS = (
    "js",
    "mjs",
    "css",
    "png",
    "jpg",
    "jpeg",
    "gif",
    "webp",
    "avif",
    "svg",
    "ico",
    "bmp",
    "woff",
    "woff2",
    "ttf",
    "otf",
    "eot",
    "mp4",
    "webm",
    "mp3",
    "m4a",
    "ogg",
    "wasm",
)
"""File names an offline page asks for that are never its document: each is matched at the end
of a URL, or before its query."""

BLOCKED_PATTERNS = tuple(
    pattern for ext in STATIC_EXTENSIONS for pattern in (f"*.{ext}", f"*.{ext}?*")
)
"""Chromium's blocked URL patterns (``*`` matches anything, the rest is literal)."""


def _as_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.IGNORECASE)


_BLOCKED = tuple(_as_regex(pattern) for pattern in BLOCKED_PATTERNS)


def blocked_in_browser(url: str) -> bool:
    """Whether ``url`` matches one of ``BLOCKED_PATTERNS`` (as Chromium matches them)."""
    return any(regex.fullmatch(url) for regex in _BLOCKED)


async def refuse_static_requests(network: PageNetwork) -> bool:
    """Have Chromium refuse the tab's static requests (``BLOCKED_PATTERNS``); says whether it
    does. Chromium leaves navigations out of the patterns: a page served from memory at
    ``/feed.js`` is still asked for, and answered, through the route chain
    (``tests/browser/test_pool.py``)."""
    try:
        await network.session.send("Network.setBlockedURLs", {"urls": list(BLOCKED_PATTERNS)})
    except PlaywrightError:
        return False  # the route chain refuses them all the same
    return True
