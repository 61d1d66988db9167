"""The URL patterns Chromium refuses for an offline page served from memory
(``renderer/browser/offline.py``): static file names, never a document's address."""

from __future__ import annotations

import pytest

from renderer.browser.offline import BLOCKED_PATTERNS, blocked_in_browser


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example/static/app.js",
        "https://news.example/static/app.mjs?v=3",
        "https://cdn.example/site.css?v=2&x=1",
        "https://img.example/photo.jpg",
        "https://img.example/photo.webp?w=800",
        "https://fonts.example/sans.woff2",
        "https://video.example/clip.mp4",
    ],
)
def test_static_file_names_are_refused(url: str) -> None:
    assert blocked_in_browser(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example/2019/11/18/story",
        "https://news.example/story.html",
        "https://news.example/index.jsp",  # not .js
        "https://news.example/article.cssx",
        "https://api.example/v1/items?page=2",
        "https://news.example/pixel",
    ],
)
def test_documents_and_nameless_requests_are_not(url: str) -> None:
    assert not blocked_in_browser(url)


def test_a_query_that_names_a_file_matches_as_chromium_matches_it() -> None:
    """``*`` matches anything, ``?`` is literal: an address whose query ends in ``.css``
    matches (as a navigation, Chromium would still let it through)."""
    assert blocked_in_browser("https://news.example/view.php?file=a.css")
    assert all("?" not in pattern or pattern.endswith("?*") for pattern in BLOCKED_PATTERNS)
