"""Basic page metadata from <head> and the Readability.js result.

Deliberately cheap for now: OpenGraph, standard <meta> names, <title> and <html lang>. JSON-LD,
microdata and real date parsing arrive with the RAG-metadata work.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from ._types import Metadata, PageSnapshot

_SPACES = re.compile(r"\s+")
MAX_FIELD_CHARS = 500
"""Metadata longer than this is not a title or an author; it is cut to keep JSON sane."""


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    value = _SPACES.sub(" ", value).strip()
    return value[:MAX_FIELD_CHARS] or None


def _meta(document: HtmlElement, *keys: str) -> str | None:
    """First non-empty <meta> content whose name or property is one of ``keys``."""
    wanted = {key.lower() for key in keys}
    found: dict[str, str] = {}
    for meta in document.iter("meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        content = meta.get("content")
        if key in wanted and content and content.strip() and key not in found:
            found[key] = content
    for key in keys:
        if key.lower() in found:
            return _clean(found[key.lower()])
    return None


def _title_tag(document: HtmlElement) -> str | None:
    title = document.find(".//title")
    return _clean(title.text_content()) if title is not None else None


def _first_h1(document: HtmlElement) -> str | None:
    h1 = next(document.iter("h1"), None)
    return _clean(h1.text_content()) if h1 is not None else None


def read_metadata(document: HtmlElement, snapshot: PageSnapshot) -> Metadata:
    """Metadata from the page itself, completed by what Readability.js found in the page."""
    readability = snapshot.readability
    lang = _clean(document.get("lang")) or _meta(document, "og:locale", "content-language")
    return Metadata(
        title=_meta(document, "og:title", "twitter:title")
        or (_clean(readability.title) if readability else None)
        or _title_tag(document)
        or _first_h1(document),
        author=_meta(document, "author", "article:author", "byl")
        or (_clean(readability.byline) if readability else None),
        date=_meta(document, "article:published_time", "date", "pubdate", "publishdate", "dc.date")
        or (_clean(readability.published_time) if readability else None),
        site_name=_meta(document, "og:site_name", "application-name")
        or (_clean(readability.site_name) if readability else None),
        lang=lang or (_clean(readability.lang) if readability else None),
        description=_meta(document, "description", "og:description", "twitter:description")
        or (_clean(readability.excerpt) if readability else None),
    )
