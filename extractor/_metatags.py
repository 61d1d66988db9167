"""Metadata the HTML itself carries: <meta> tags, <link>s, microdata, <title>, <h1>, lang.

One pass per kind of element gathers raw values; ``_metadata`` picks among them. Reading is
cheap by design (a few ``iter``/XPath calls over the parsed tree, no copies).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import islice
from urllib.parse import urlsplit

from lxml import etree
from lxml.html import HtmlElement

MAX_FIELD_CHARS = 500
"""Metadata longer than this is not a title or an author; it is cut to keep JSON sane."""
MAX_H1 = 3
"""Headings read for the title: the article's is among the first few when there are several."""
MAX_LINKS_FOR_HOME = 200
"""Links looked at for the home link (the logo is near the top; a page may have thousands)."""
HOME_PATHS = frozenset({"", "/", ".", "./", "index.html", "index.htm", "index.php"})
"""Paths of a link back to the site's front page (relative, or after the last slash)."""
MICRODATA_PROPS = frozenset(
    {"headline", "author", "description", "image", "keywords", "articlesection"}
)
"""The microdata properties worth reading; the dates are htmldate's job."""

_SPACES = re.compile(r"\s+")
_MICRODATA = etree.XPath("//*[@itemprop]")
_REL_AUTHOR = etree.XPath("//a[contains(concat(' ', normalize-space(@rel), ' '), ' author ')]")


def clean(value: str | None) -> str | None:
    """Whitespace collapsed and length capped; None for nothing."""
    if value is None:
        return None
    value = _SPACES.sub(" ", value).strip()
    return value[:MAX_FIELD_CHARS] or None


def _text(element: HtmlElement) -> str | None:
    return clean(element.text_content())


@dataclass(kw_only=True)
class PageTags:
    """Raw values by source. Keys of ``meta`` and ``microdata`` are lower case."""

    meta: dict[str, list[str]] = field(default_factory=dict)
    microdata: dict[str, list[str]] = field(default_factory=dict)
    canonical: str | None = None
    image_src: str | None = None
    rel_authors: list[str] = field(default_factory=list)
    title: str | None = None
    h1s: list[str] = field(default_factory=list)
    home_names: list[str] = field(default_factory=list)
    lang: str | None = None
    host: str | None = None
    """The page's host name, lower-cased (``www.newegg.com``)."""

    def first(self, *keys: str) -> str | None:
        """The first value of the first ``<meta>`` key present, in the order given."""
        for key in keys:
            if self.meta.get(key):
                return self.meta[key][0]
        return None

    def all(self, *keys: str) -> list[str]:
        """Every value of the first ``<meta>`` key present (``article:tag`` repeats)."""
        for key in keys:
            if self.meta.get(key):
                return self.meta[key]
        return []


def _meta_tags(document: HtmlElement) -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for meta in document.iter("meta"):
        content = clean(meta.get("content"))
        if content is None:
            continue
        # ``property`` may hold several names ("dc:title og:title"), as Readability.js allows.
        names = (meta.get("property") or "").split()
        names += (meta.get("name") or meta.get("http-equiv") or "").split()
        for name in names:
            found[name.lower()].append(content)
    return dict(found)


def _microdata_value(element: HtmlElement) -> str | None:
    if element.get("itemscope") is not None:
        # A nested item (an author Person): its name, not all of its text.
        name = element.xpath(".//*[@itemprop='name']")
        return _microdata_value(name[0]) if name else None
    for attribute in ("content", "datetime"):
        if element.get(attribute):
            return clean(element.get(attribute))
    if element.tag in ("a", "link") and element.get("href"):
        return clean(element.get("href"))
    if element.tag in ("img", "source") and element.get("src"):
        return clean(element.get("src"))
    return _text(element)


def _microdata(document: HtmlElement) -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for element in _MICRODATA(document):
        for prop in (element.get("itemprop") or "").lower().split():
            if prop in MICRODATA_PROPS:
                value = _microdata_value(element)
                if value:
                    found[prop].append(value)
    return dict(found)


def _link(document: HtmlElement, rel: str) -> str | None:
    for link in document.iter("link"):
        if rel in (link.get("rel") or "").lower().split() and link.get("href"):
            return clean(link.get("href"))
    return None


def _home_names(document: HtmlElement, page_url: str | None) -> list[str]:
    """What the links back to the front page say (the logo's alt text, "Home"): the site's name
    as the page shows it, to recognise it in <title> when no <meta> names the site."""
    host = urlsplit(page_url).netloc if page_url else None
    names: list[str] = []
    for link in islice(document.iter("a"), MAX_LINKS_FOR_HOME):
        href = (link.get("href") or "").strip()
        if not href or "#" in href or "?" in href:
            continue
        # A home link's path holds at most one slash, after at most "//host": more slashes
        # rule it out without urlsplit (which cost most of this function).
        if href.count("/") > 3:
            continue
        parts = urlsplit(href)
        if parts.netloc and parts.netloc != host:
            continue  # another site's front page: a share button, a partner
        if parts.path.count("/") <= 1 and parts.path.rsplit("/", 1)[-1] in HOME_PATHS:
            texts = [_text(link)] + [clean(img.get("alt")) for img in link.iter("img")]
            names += [text for text in texts if text and text not in names]
    return names


def read_tags(document: HtmlElement, page_url: str | None = None) -> PageTags:
    """Every raw metadata value the HTML holds, in document order.

    ``page_url`` tells links to this site's front page from links to other sites'.
    """
    title = document.find("head/title")
    if title is None:
        title = document.find(".//title")
    # Sphinx and MkDocs end every heading with a "¶" permalink.
    h1s = [text.rstrip("¶ ") for h1 in islice(document.iter("h1"), MAX_H1) if (text := _text(h1))]
    rel_authors = [text for a in _REL_AUTHOR(document) if (text := _text(a))]
    return PageTags(
        meta=_meta_tags(document),
        microdata=_microdata(document),
        canonical=_link(document, "canonical"),
        image_src=_link(document, "image_src"),
        rel_authors=rel_authors,
        title=_text(title) if title is not None else None,
        h1s=[text for text in h1s if text],
        home_names=_home_names(document, page_url),
        host=(urlsplit(page_url).hostname or None) if page_url else None,
        lang=clean(
            document.get("lang") or document.get("{http://www.w3.org/XML/1998/namespace}lang")
        ),
    )
