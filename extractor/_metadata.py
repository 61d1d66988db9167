"""Page metadata for search and RAG: what the page says about itself, and where it said it.

Each field takes the first source that has a usable value, in this order of precedence:

1. ``json-ld``: schema.org JSON-LD (``_jsonld``: @graph, arrays, nested and referenced authors,
   ``publisher.name``, ``image`` as string/object/list, ``keywords``, ``articleSection``);
2. ``opengraph``: ``og:*`` and ``article:*`` (published_time, author, tag, section);
3. ``twitter``: Twitter cards (title, description, image; never the @handles);
4. ``meta``: standard <meta> names (author, description, keywords, application-name,
   content-language) with their Dublin Core and ``citation_*`` equivalents;
5. ``microdata``: ``itemprop`` headline, author, description, image, keywords, articleSection;
6. ``html``: ``<a rel=author>`` for authors;
7. ``readability-js``: what Readability.js found in the rendered page (byline, title, ...);
8. ``h1`` and ``title``: for the title only (``_title``: suffix cut, corroborated by <h1>).

Exceptions, because a better source exists for them: ``lang`` reads ``<html lang>`` first;
``canonical_url`` reads ``<link rel=canonical>`` (source ``link``), then ``og:url``, then
JSON-LD ``url``; the dates are JSON-LD's when valid, then htmldate's (``_dates``), then
Readability.js's; a product page that gives no description anywhere else takes the first
paragraph of its JSON-LD ``Product``'s (``_productfacts``, source ``json-ld``). Every title
source has the site's name cut off its ends. ``Metadata.sources`` records the winning source of
each field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import urljoin, urlsplit

from lxml.html import HtmlElement

from ._dates import find_dates
from ._jsonld import JsonLdFields, read_json_ld
from ._metatags import PageTags, clean, read_tags
from ._postprocess import resolve_base_url
from ._title import strip_host_suffix, strip_site_name, title_from_page
from ._types import Metadata, PageSnapshot, ReadabilityResult

MAX_LIST_ITEMS = 30
"""Authors, tags or categories beyond this are a tag cloud, not metadata."""

_BY_PREFIX = re.compile(r"^(?:by|von|par|por|di|door)\s*:?\s+", re.IGNORECASE)
_LANGUAGE_TAG = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$")
_URL_LIKE = re.compile(r"^(?:https?:|www\.|/)|\.\w{2,4}/", re.IGNORECASE)

# Dublin Core is written dc.title, DC.title (keys are lower-cased), dc:title or dcterms.title;
# where a page has it, it is as deliberate as the plain <meta> names, so it comes first.
_DUBLIN_CORE = {
    name: (f"dc.{name}", f"dc:{name}", f"dcterms.{name}", f"dcterms:{name}")
    for name in ("title", "creator", "description", "language")
}
_AUTHOR_META = (
    *_DUBLIN_CORE["creator"], "author", "citation_author", "parsely-author", "byl",
)  # fmt: skip
"""``byl`` is the New York Times' ("By Ann Writer"); citation_author repeats, one per author."""

T = TypeVar("T", str, tuple[str, ...])


class _Picker:
    """Takes each field's first non-empty candidate and remembers which source gave it."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}

    def pick(self, name: str, candidates: Iterable[tuple[str, T | None]]) -> T | None:
        for source, value in candidates:
            if value:
                self.sources[name] = source
                return value
        return None


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    """Cleaned values without repeats (case-insensitive), in order, at most MAX_LIST_ITEMS."""
    seen: dict[str, str] = {}
    for value in values:
        text = clean(value)
        if text and text.casefold() not in seen:
            seen[text.casefold()] = text
    return tuple(seen.values())[:MAX_LIST_ITEMS]


def _split_commas(values: Iterable[str]) -> list[str]:
    return [part for value in values for part in value.split(",")]


def _authors(values: Iterable[str]) -> tuple[str, ...]:
    """Names only: "By " dropped, profile URLs and @handles left out."""
    names = []
    for value in values:
        name = _BY_PREFIX.sub("", clean(value) or "")
        if name and not _URL_LIKE.search(name) and not name.startswith("@"):
            names.append(name)
    return _unique(names)


def _absolute_url(value: str | None, base: str | None) -> str | None:
    """An absolute http(s) URL, resolved against the page's base; None for anything else."""
    if not value or not value.strip():
        return None
    try:
        url = urljoin(base, value.strip()) if base else value.strip()
    except ValueError:
        return None
    return url if urlsplit(url).scheme in ("http", "https") and urlsplit(url).netloc else None


def _language(value: str | None) -> str | None:
    """A BCP 47-looking tag, ``en_US`` written ``en-US``."""
    if value and _LANGUAGE_TAG.match(value.strip()):
        return value.strip().replace("_", "-")
    return None


def _first_of(values: list[str] | None) -> str | None:
    return values[0] if values else None


def _title(
    picker: _Picker,
    tags: PageTags,
    json_ld_title: str | None,
    readability_title: str | None,
    site_name: str | None,
) -> str | None:
    title = picker.pick(
        "title",
        [
            ("json-ld", json_ld_title),
            ("opengraph", tags.first("og:title")),
            ("twitter", tags.first("twitter:title")),
            ("meta", tags.first(*_DUBLIN_CORE["title"], "citation_title", "parsely-title")),
            ("microdata", _first_of(tags.microdata.get("headline"))),
            ("readability-js", _cut(readability_title, tags.title)),
        ],
    )
    if title:
        stripped = strip_site_name(title, site_name)
        return stripped if stripped != title else strip_host_suffix(title, tags.host)
    site_names = [site_name] if site_name else []
    found = title_from_page(tags.title, tags.h1s, site_names + tags.home_names)
    if found is None:
        return None
    title, picker.sources["title"] = found
    return title


def _cut(readability_title: str | None, page_title: str | None) -> str | None:
    """Readability.js's title when it is not the page's whole ``<title>``: it keeps that whole
    when it finds no separator it knows ("Guide — Celery 5.6.2 documentation": an em dash),
    and ``title_from_page`` then cuts the site's name better (against the page's ``<h1>``)."""
    if readability_title and page_title == readability_title:  # both cleaned alike
        return None
    return readability_title


@dataclass(frozen=True)
class _Sources:
    """What every field is picked from: the page's tags, its JSON-LD, Readability.js's result."""

    tags: PageTags
    ld: JsonLdFields
    rj: ReadabilityResult
    base: str | None


def _read_sources(document: HtmlElement, snapshot: PageSnapshot) -> _Sources:
    own = read_title_sources(document, snapshot.base_url)
    rj = snapshot.readability or ReadabilityResult(content=None)
    return _Sources(own.tags, own.ld, rj, resolve_base_url(document, snapshot.base_url))


@dataclass(frozen=True)
class TitleSources:
    """What the title is picked from in the page itself (Readability.js's title aside): read
    from the untouched parse while there is one, so that the title needs no parse of its own."""

    tags: PageTags
    ld: JsonLdFields


def read_title_sources(document: HtmlElement, page_url: str | None) -> TitleSources:
    """The page's tags and JSON-LD fields, from its untouched parse."""
    tags = read_tags(document, page_url)
    return TitleSources(tags, read_json_ld(document, tags.title))


def read_title(sources: TitleSources, snapshot: PageSnapshot) -> str | None:
    """``read_metadata``'s title alone: the title line of text and Markdown output wants
    nothing else, and the dates (htmldate) are most of a whole reading's time."""
    rj = snapshot.readability or ReadabilityResult(content=None)
    found = _Sources(sources.tags, sources.ld, rj, None)
    picker = _Picker()
    site_name = _site_name(picker, found)
    return _title(picker, found.tags, clean(found.ld.title), clean(found.rj.title), site_name)


def read_metadata(document: HtmlElement, snapshot: PageSnapshot) -> Metadata:
    """Metadata from the untouched parse of the page, completed by Readability.js's result.

    Fields are picked in this order, which is the order of ``Metadata.sources``."""
    found = _read_sources(document, snapshot)
    tags, ld, rj = found.tags, found.ld, found.rj
    picker = _Picker()
    site_name = _site_name(picker, found)
    title = _title(picker, tags, clean(ld.title), clean(rj.title), site_name)
    authors = _authors_field(picker, found)
    published, modified = find_dates(
        document,
        url=snapshot.base_url,
        json_ld_published=ld.date_published,
        json_ld_modified=ld.date_modified,
        readability_published=rj.published_time,
    )
    for name, date in (("date_published", published), ("date_modified", modified)):
        if date is not None:
            picker.sources[name] = date.source
    lang = _lang(picker, found)
    description = _description(picker, found)
    image = _image(picker, found)
    tag_list, categories = _keywords(picker, found)
    return Metadata(
        title=title,
        authors=authors or (),
        date_published=published.value if published else None,
        date_modified=modified.value if modified else None,
        site_name=site_name,
        lang=lang,
        description=description,
        image=image,
        tags=tag_list or (),
        categories=categories or (),
        canonical_url=_canonical_url(picker, found),
        sources=picker.sources,
    )


def _site_name(picker: _Picker, found: _Sources) -> str | None:
    return picker.pick(
        "site_name",
        [
            ("json-ld", clean(found.ld.site_name)),
            ("opengraph", found.tags.first("og:site_name")),
            ("meta", found.tags.first("application-name")),
            ("readability-js", clean(found.rj.site_name)),
        ],
    )


def _authors_field(picker: _Picker, found: _Sources) -> tuple[str, ...] | None:
    tags, rj = found.tags, found.rj
    return picker.pick(
        "authors",
        [
            ("json-ld", _authors(found.ld.authors)),
            ("opengraph", _authors(tags.all("article:author", "og:article:author"))),
            ("meta", _authors(tags.all(*_AUTHOR_META))),
            ("microdata", _authors(tags.microdata.get("author", []))),
            ("html", _authors(tags.rel_authors)),
            ("readability-js", _authors([rj.byline] if rj.byline else [])),
        ],
    )


def _lang(picker: _Picker, found: _Sources) -> str | None:
    tags = found.tags
    return picker.pick(
        "lang",
        [
            ("html", _language(tags.lang)),
            ("json-ld", _language(found.ld.lang)),
            ("opengraph", _language(tags.first("og:locale"))),
            ("meta", _language(tags.first(*_DUBLIN_CORE["language"], "content-language"))),
            ("readability-js", _language(found.rj.lang)),
        ],
    )


def _description(picker: _Picker, found: _Sources) -> str | None:
    tags = found.tags
    return picker.pick(
        "description",
        [
            ("json-ld", clean(found.ld.description)),
            ("opengraph", tags.first("og:description")),
            ("twitter", tags.first("twitter:description")),
            ("meta", tags.first(*_DUBLIN_CORE["description"], "description")),
            ("microdata", _first_of(tags.microdata.get("description"))),
            ("readability-js", clean(found.rj.excerpt)),
        ],
    )


def _image(picker: _Picker, found: _Sources) -> str | None:
    tags, base = found.tags, found.base
    return picker.pick(
        "image",
        [
            ("json-ld", _absolute_url(found.ld.image, base)),
            ("opengraph", _absolute_url(tags.first("og:image", "og:image:url"), base)),
            ("twitter", _absolute_url(tags.first("twitter:image", "twitter:image:src"), base)),
            ("microdata", _absolute_url(_first_of(tags.microdata.get("image")), base)),
            ("link", _absolute_url(tags.image_src, base)),
        ],
    )


def _keywords(
    picker: _Picker, found: _Sources
) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None]:
    tags, ld = found.tags, found.ld
    tag_list = picker.pick(
        "tags",
        [
            ("json-ld", _unique(ld.tags)),
            ("opengraph", _unique(_split_commas(tags.all("article:tag")))),
            ("meta", _unique(_split_commas(tags.all("keywords", "news_keywords")))),
            ("microdata", _unique(_split_commas(tags.microdata.get("keywords", [])))),
        ],
    )
    categories = picker.pick(
        "categories",
        [
            ("json-ld", _unique(ld.categories)),
            ("opengraph", _unique(tags.all("article:section"))),
            ("microdata", _unique(tags.microdata.get("articlesection", []))),
        ],
    )
    return tag_list, categories


def _canonical_url(picker: _Picker, found: _Sources) -> str | None:
    return picker.pick(
        "canonical_url",
        [
            ("link", _absolute_url(found.tags.canonical, found.base)),
            ("opengraph", _absolute_url(found.tags.first("og:url"), found.base)),
            ("json-ld", _absolute_url(found.ld.canonical_url, found.base)),
        ],
    )
