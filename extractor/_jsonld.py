"""JSON-LD (schema.org) metadata: the page's own structured description of itself.

Every ``<script type="application/ld+json">`` is parsed; broken JSON is repaired only in cheap,
common ways (HTML comment or CDATA wrappers, trailing commas) and otherwise skipped. Nodes come
from top-level objects, arrays, ``@graph`` and ``mainEntity``; references by ``@id`` (Yoast's
graphs point at their author and publisher that way) are resolved. The main node is the first
article-like node, else the first web-page node; a web-page node fills what the article lacks.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lxml.html import HtmlElement

MAX_SCRIPT_CHARS = 1_000_000
"""A JSON-LD block longer than this is data, not page metadata: skipped unread."""
MAX_NODES = 2_000
"""Nodes read per page at most, so a huge product catalogue in JSON-LD costs little."""

# Readability.js's list (Readability.js ``_getJSONLD``), plus the schema.org article subtypes
# it leaves out; all of them describe one piece of writing.
ARTICLE_TYPES = frozenset(
    {
        "Article", "AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle",
        "AskPublicNewsArticle", "BackgroundNewsArticle", "OpinionNewsArticle",
        "ReportageNewsArticle", "ReviewNewsArticle", "Report", "SatiricalArticle",
        "ScholarlyArticle", "MedicalScholarlyArticle", "SocialMediaPosting", "BlogPosting",
        "LiveBlogPosting", "DiscussionForumPosting", "TechArticle", "APIReference",
        "Review", "Recipe", "HowTo", "Blog",
    }
)  # fmt: skip
PAGE_TYPES = frozenset(
    {
        "WebPage", "ItemPage", "AboutPage", "FAQPage", "QAPage", "ProfilePage",
        "CollectionPage", "ContactPage", "MedicalWebPage", "SearchResultsPage",
    }
)  # fmt: skip

_COMMENT_WRAPPER = re.compile(r"<!--|-->|//\s*<!\[CDATA\[|//\s*\]\]>|<!\[CDATA\[|\]\]>")
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


@dataclass(frozen=True, kw_only=True)
class JsonLdFields:
    """What JSON-LD says, as raw strings and lists; cleaning and validation come later."""

    title: str | None = None
    authors: tuple[str, ...] = ()
    date_published: str | None = None
    date_modified: str | None = None
    site_name: str | None = None
    lang: str | None = None
    description: str | None = None
    image: str | None = None
    tags: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    canonical_url: str | None = None


def _loads(text: str) -> Any:
    """Parsed JSON, or None. Control characters inside strings are tolerated (strict=False)."""
    try:
        return json.loads(text, strict=False)
    except ValueError:
        pass
    repaired = _TRAILING_COMMA.sub(r"\1", _COMMENT_WRAPPER.sub("", text))
    try:
        return json.loads(repaired, strict=False)
    except ValueError:
        return None


def node_types(node: dict[str, Any]) -> set[str]:
    """The schema.org types a node declares, by their short names."""
    value = node.get("@type")
    values = value if isinstance(value, list) else [value]
    # "http://schema.org/Article" and "schema:Article" name the same type as "Article".
    return {v.rsplit("/", 1)[-1].rsplit(":", 1)[-1] for v in values if isinstance(v, str)}


def _walk(value: Any, found: list[dict[str, Any]]) -> None:
    """Collect nodes from a parsed block: objects, arrays, ``@graph`` and ``mainEntity``."""
    if len(found) >= MAX_NODES:
        return
    if isinstance(value, list):
        for item in value:
            _walk(item, found)
    elif isinstance(value, dict):
        found.append(value)
        for key in ("@graph", "mainEntity"):
            if isinstance(value.get(key), list | dict):
                _walk(value[key], found)


def json_ld_nodes(document: HtmlElement) -> list[dict[str, Any]]:
    """Every JSON-LD node of the page in document order; unparseable blocks are skipped."""
    nodes: list[dict[str, Any]] = []
    for script in document.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        text = script.text or ""
        if not text.strip() or len(text) > MAX_SCRIPT_CHARS:
            continue
        _walk(_loads(text), nodes)
    return nodes


class _Graph:
    """The page's nodes with ``@id`` references resolvable."""

    def __init__(self, nodes: list[dict[str, Any]]) -> None:
        self.nodes = nodes
        self.by_id = {n["@id"]: n for n in nodes if isinstance(n.get("@id"), str)}

    def resolve(self, value: Any) -> Any:
        """A ``{"@id": ...}`` reference replaced by the node it names, when the page has it."""
        if isinstance(value, dict) and "@id" in value and len(value) <= 2:
            return self.by_id.get(value["@id"], value)
        return value

    def first_of(self, types: frozenset[str]) -> dict[str, Any] | None:
        return next((n for n in self.nodes if node_types(n) & types), None)


def _text(value: Any) -> str | None:
    """A string value, or the ``@value``/first item of the ways JSON-LD wraps one."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("@value")
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        text = _unescaped(str(value)).strip()
        return text or None
    return None


def _unescaped(text: str) -> str:
    """``text`` with the HTML entities decoded that producers leave in JSON-LD strings: a
    script's text is not HTML-decoded, and WordPress writes "Eating Plate &bull; The
    Nutrition Source" and "Traveler&#8217;s Guide" there."""
    return html.unescape(text) if "&" in text else text


def _strings(value: Any) -> Iterator[str]:
    """Items of a string-or-list value; a string is split on commas (``keywords: "a, b"``)."""
    items = value if isinstance(value, list) else [value]
    for item in items:
        text = _text(item)
        if text:
            yield from (part.strip() for part in text.split(","))


def _person_names(graph: _Graph, value: Any) -> Iterator[str]:
    """Names from an author value: a string, a Person/Organization object, a reference, a list."""
    for item in value if isinstance(value, list) else [value]:
        item = graph.resolve(item)
        if isinstance(item, dict):
            name = _text(item.get("name"))
            if not name:
                parts = (_text(item.get("givenName")), _text(item.get("familyName")))
                name = " ".join(p for p in parts if p) or None
            if name:
                yield name
        elif isinstance(item, str) and item.strip():
            yield _unescaped(item).strip()


def _url(graph: _Graph, value: Any) -> str | None:
    """A URL from a string, an ImageObject (``url``/``contentUrl``), a reference or a list."""
    for item in value if isinstance(value, list) else [value]:
        item = graph.resolve(item)
        if isinstance(item, dict):
            item = item.get("url") or item.get("contentUrl") or item.get("@id")
            if isinstance(item, list):
                item = item[0] if item else None
        if isinstance(item, str) and item.strip():
            return item.strip()
    return None


def _site_name(graph: _Graph, main: dict[str, Any]) -> str | None:
    """The WebSite node's name (the site's own), else the publisher's (often a company's)."""
    website = graph.first_of(frozenset({"WebSite"}))
    if website is not None and _text(website.get("name")):
        return _text(website.get("name"))
    publisher = graph.resolve(main.get("publisher"))
    if isinstance(publisher, list):
        publisher = graph.resolve(publisher[0]) if publisher else None
    return _text(publisher.get("name")) if isinstance(publisher, dict) else None


def _get(primary: dict[str, Any], fallback: dict[str, Any] | None, key: str) -> Any:
    value = primary.get(key)
    if value in (None, "", []) and fallback is not None:
        value = fallback.get(key)
    return value


def _title(node: dict[str, Any], page_title: str | None, site_name: str | None) -> str | None:
    """``headline``, or ``name`` when there is none or only ``name`` is in the <title>.

    Wikipedia's ``headline`` is a one-line description ("matrix equal to its conjugate-
    transpose") and its ``name`` the title; Readability.js settles it by likeness to the <title>
    too. Some sites put their own name in ``name``: that is never the title. A site suffix in
    either is cut later.
    """
    headline, name = _text(node.get("headline")), _text(node.get("name"))
    if name and site_name and name.casefold() == site_name.casefold():
        name = None
    if headline and name and headline != name and page_title:
        folded = page_title.casefold()
        if name.casefold() in folded and headline.casefold() not in folded:
            return name
    return headline or name


def read_json_ld(document: HtmlElement, page_title: str | None = None) -> JsonLdFields:
    """The fields JSON-LD gives for the page's main node; empty when there is none.

    ``page_title`` (the <title> text) decides between ``headline`` and ``name``.
    """
    graph = _Graph(json_ld_nodes(document))
    article = graph.first_of(ARTICLE_TYPES)
    webpage = graph.first_of(PAGE_TYPES)
    main = article or webpage
    if main is None:
        return JsonLdFields()
    extra = webpage if main is article else None

    site_name = _site_name(graph, main)
    title = _title(main, page_title, site_name)
    if not title and extra is not None:
        title = _title(extra, page_title, site_name)
    page_ref = main.get("mainEntityOfPage")
    canonical = _text(main.get("url")) or _url(graph, page_ref if page_ref is not True else None)
    return JsonLdFields(
        title=title,
        authors=tuple(_person_names(graph, _get(main, extra, "author"))),
        date_published=_text(_get(main, extra, "datePublished")),
        date_modified=_text(_get(main, extra, "dateModified")),
        site_name=site_name,
        lang=_text(_get(main, extra, "inLanguage")),
        description=_text(_get(main, extra, "description")),
        image=_url(graph, _get(main, extra, "image") or _get(main, extra, "thumbnailUrl")),
        tags=tuple(_strings(main.get("keywords"))),
        categories=tuple(_strings(main.get("articleSection"))),
        canonical_url=canonical,
    )
