"""Post-processing of the winning content: lazy images, absolute URLs, whitespace, sanitising.

Runs on an element the cascade owns (stages hand over copies), and always in the same order:
promote lazy image sources first (the sanitiser drops the data-* attributes that carry them),
make URLs absolute, normalise whitespace, then sanitise last, so the HTML we emit is exactly
what the sanitiser produced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import lxml.etree
import lxml.html
from lxml.html import HtmlElement

from ._parse import inner_html, parse_fragment
from ._sanitize import sanitize_html
from ._text import BLOCK_TAGS, HEADING_TAGS, WORDLESS_CONTENT, element_text

LAZY_SRC_ATTRIBUTES = (
    "data-src",
    "data-original",
    "data-lazy-src",
    "data-lazy",
    "data-url",
    "data-hi-res-src",
    "data-full-src",
    "data-original-src",
    "data-actualsrc",
    "data-echo",
    "data-img-src",
)
LAZY_SRCSET_ATTRIBUTES = ("data-srcset", "data-lazy-srcset", "data-original-srcset", "srcset")

# Sources that stand in for the real image until a script swaps them.
_PLACEHOLDER_SRC = re.compile(
    r"^data:|placeholder|blank\.(gif|png)|spacer|pixel\.|1x1|transparent\.(gif|png)|"
    r"lazy[-_]?load|loading\.(gif|svg)|grey\.gif|gray\.gif",
    re.IGNORECASE,
)
_SRCSET_ENTRY = re.compile(r"\s*(\S+?)(?:\s+([\d.]+)([wx]))?\s*(?:,|$)")
_SPACES = re.compile(r"\s+")
_EMPTY_DROPPABLE = frozenset(
    {
        "p",
        "div",
        "span",
        "section",
        "li",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "figure",
        "figcaption",
        "blockquote",
        "strong",
        "em",
        "b",
        "i",
    }
)
_KEEPS_EMPTY = ("img", "br", "hr", "td", "th")


@dataclass(frozen=True)
class CleanContent:
    """Sanitised HTML of the main content and its plain text."""

    html: str
    text: str


def postprocess(element: HtmlElement, *, base_url: str | None) -> CleanContent:
    """Turn a candidate element (owned by the caller, mutated here) into clean content."""
    promote_lazy_images(element)
    drop_empty_links(element)
    if base_url and urlsplit(base_url).scheme in ("http", "https", "file"):
        element.make_links_absolute(base_url, resolve_base_href=False, handle_failures="discard")
    normalize_whitespace(element)
    space_adjacent_links(element)
    element = _unwrap_wrappers(element)
    raw = lxml.html.tostring(element, encoding="unicode", with_tail=False)
    html = sanitize_html(raw).strip()
    return CleanContent(html=html, text=html_to_text(html))


_PERMALINK_MARK = re.compile(r"[¶§#🔗⚓]+")
"""What a heading's permalink to itself shows: Sphinx's and MkDocs' "¶", "#", "§", a link
emoji (Docusaurus' shows a zero-width space; others an icon, which the sanitiser drops)."""
_LINK_CONTENT = ("img", "picture", "video", "audio")


def drop_empty_links(root: HtmlElement) -> int:
    """Remove the links that show no words: a heading's permalink to itself (``¶``) and an
    icon link whose icon the sanitiser drops ("edit this page" as a pencil). In Markdown
    they become ``[¶](…#anchor)`` and ``[](…)``; a reader or a RAG chunk gains nothing from
    them. Text after a link stays. Returns how many went."""
    dropped = 0
    for link in list(root.iter("a")):
        if link is root or next(link.iter(*_LINK_CONTENT), None) is not None:
            continue
        shown = link.text_content().translate(_INVISIBLE).strip()
        to_itself = (link.get("href") or "").strip().startswith("#")
        if shown and not (to_itself and _PERMALINK_MARK.fullmatch(shown)):
            continue
        link.drop_tree()
        dropped += 1
    return dropped


def space_adjacent_links(root: HtmlElement) -> int:
    """Put a space between two links that touch (``<a>Add to Wish List</a><a>Add to
    Compare</a>``): the page's style sheet sets them apart, and read as text they ran into one
    word ("ListAdd"). Only where a letter or digit meets another: a link ending in "(" or a
    dash is left as it is. Returns how many were spaced."""
    spaced = 0
    for link in root.iter("a"):
        following = link.getnext()
        if link.tail or following is None or following.tag != "a":
            continue
        shown, after = link.text_content(), following.text_content()
        if shown and after and shown[-1].isalnum() and after[0].isalnum():
            link.tail = " "
            spaced += 1
    return spaced


_WRAPPER_TAGS = frozenset({"div", "section", "article", "main", "body", "html"})


def without_trailing_headings(content: CleanContent) -> CleanContent:
    """The final content without the headings that end it with nothing under them: a
    sidebar's "Recent Posts", "Categories" and "Archives" whose lists the rules took. Done on
    the result only: every candidate is a judge of the block vote, and trimming them moved
    its votes (wcxb-dev 4361 0.96 -> 0.18)."""
    if not _HEADING_TAG.search(content.html[-400:]):
        return content  # the last heading is far from the end (most pages): nothing trails
    root = parse_fragment(content.html)
    if not drop_trailing_headings(root):
        return content
    html = inner_html(root).strip()
    return CleanContent(html=html, text=html_to_text(html))


_HEADING_TAG = re.compile(r"<h[1-6][\s>]")


def drop_trailing_headings(root: HtmlElement) -> int:
    """Remove (in place) the headings that end ``root`` with nothing under them; how many."""
    dropped = 0
    while (last := _last_shown(root)) is not None:
        heading = next(
            (el for el in (last, *last.iterancestors()) if el.tag in HEADING_TAGS or el is root),
            root,
        )
        if heading is root or any(
            el.tag in WORDLESS_CONTENT or el.tag == "a" for el in heading.iter()
        ):
            break  # a picture shows under it; a linked heading is a listing's item, not a label
        if heading.text_content().rstrip().endswith("?"):
            break  # an FAQ's questions, whose answers stayed folded: they say what it covers
        heading.drop_tree()
        dropped += 1
    return dropped


def _last_shown(root: HtmlElement) -> HtmlElement | None:
    """The element that holds the content's last words or its last picture, in page order."""
    last = None
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if _has_text(element.text) or element.tag in WORDLESS_CONTENT:
            last = element
        if element is not root and _has_text(element.tail):
            last = element.getparent()
    return last


def _unwrap_wrappers(element: HtmlElement) -> HtmlElement:
    """Skip containers that hold nothing but one other container (readability's div in a div)."""
    while (
        len(element) == 1
        and element[0].tag in _WRAPPER_TAGS
        and not (element.text or "").strip()
        and not (element[0].tail or "").strip()
    ):
        element = element[0]
    return element


def html_to_text(html: str) -> str:
    """Plain text of an HTML fragment (used on sanitised HTML, so all outputs agree)."""
    if not html.strip():
        return ""
    root = parse_fragment(html)
    return element_text(root)


def best_srcset_url(srcset: str) -> str | None:
    """The largest candidate of a srcset (by width or density descriptor)."""
    best: tuple[float, str] | None = None
    for match in _SRCSET_ENTRY.finditer(srcset):
        url, size = match.group(1), match.group(2)
        if not url or url == ",":
            continue
        weight = float(size) if size else 1.0
        if best is None or weight > best[0]:
            best = (weight, url.rstrip(","))
    return best[1] if best else None


def _is_placeholder(src: str | None) -> bool:
    return not src or not src.strip() or bool(_PLACEHOLDER_SRC.search(src.strip()))


def promote_lazy_images(root: HtmlElement) -> int:
    """Give lazy-loaded images their real ``src``; return how many were changed."""
    changed = 0
    for img in root.iter("img"):
        if not _is_placeholder(img.get("src")):
            continue
        real = next((img.get(a) for a in LAZY_SRC_ATTRIBUTES if img.get(a, "").strip()), None)
        if real is None:
            srcset = next(
                (img.get(a) for a in LAZY_SRCSET_ATTRIBUTES if img.get(a, "").strip()), None
            )
            real = best_srcset_url(srcset) if srcset else None
        if real is None:
            real = _picture_source(img)
        if real:
            img.set("src", real.strip())
            changed += 1
    return changed


def _picture_source(img: HtmlElement) -> str | None:
    # libxml2 does not know <source> is void, so the <img> may sit inside it: look upwards.
    picture = next((a for a in img.iterancestors() if a.tag == "picture"), None)
    if picture is None:
        return None
    for source in picture.iter("source"):
        srcset = source.get("srcset") or source.get("data-srcset")
        if srcset:
            return best_srcset_url(srcset)
    return None


def normalize_whitespace(root: HtmlElement) -> None:
    """Collapse runs of whitespace outside <pre>, drop empty blocks, one block per line."""
    # What lies inside a <pre>, found once: asking each element's ancestors cost as much as the
    # rest of the function.
    if any(ancestor.tag == "pre" for ancestor in root.iterancestors()):
        preformatted = set(root.iter())
    else:
        preformatted = {element for pre in root.iter("pre") for element in pre.iter()}
    for element in list(root.iter(lxml.etree.Element)):
        if element in preformatted:
            continue
        if element.text:
            element.text = _SPACES.sub(" ", element.text)
        if element.tail and (parent := element.getparent()) is not None:
            in_pre = parent.tag == "pre"
            if not in_pre:
                element.tail = _SPACES.sub(" ", element.tail)
    filled = _holding_content(root)
    for element in reversed(list(root.iter(*_EMPTY_DROPPABLE))):
        if element is root or element.getparent() is None or element in filled:
            continue
        # Inside a <pre> a span of whitespace is the code's indent or line break (Chroma's and
        # Pygments' ``<span class="w">``): empty only to the eye.
        if element in preformatted:
            continue
        if (
            element.tag not in BLOCK_TAGS
            and _is_space(element.text)
            and not _is_space((element.tail or "")[:1])
        ):
            # an inline element that is only a space (Sphinx's ``<span class="w"> </span>``
            # between "class" and the class's name) keeps the words apart when it goes
            element.tail = " " + (element.tail or "")
        element.drop_tree()
    for element in root.iter(*BLOCK_TAGS):
        if element is not root and (element.tail is None or not element.tail.strip()):
            element.tail = "\n"


def _is_space(text: str | None) -> bool:
    """Whether ``text`` is whitespace (a zero-width space is not: it joins, it shows nothing)."""
    return text is not None and text.isspace()


def _holding_content(root: HtmlElement) -> set[HtmlElement]:
    """The elements under ``root`` whose text (``text_content()``) is more than whitespace or
    that hold a ``_KEEPS_EMPTY`` element, found bottom-up in one pass: a ``text_content()`` and
    a search per element cost a third of ``normalize_whitespace``. Dropping the others does not
    change the answer for their ancestors: what they held was whitespace, and their tail stays.
    """
    filled: set[HtmlElement] = set()
    for element in reversed(list(root.iter(lxml.etree.Element))):
        if element.tag in _KEEPS_EMPTY or _has_text(element.text):
            filled.add(element)
            continue
        for child in element:
            # A comment's or processing instruction's own text is no text; its tail is.
            if child in filled or _has_text(child.tail):
                filled.add(element)
                break
    return filled


_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
"""Zero-width spaces, joiners and the BOM: no whitespace to ``str.isspace``, nothing to the eye.
A block of nothing else is empty (``<p>&zwj;</p>`` between a page's sections)."""


def _has_text(text: str | None) -> bool:
    if not text or text.isspace():
        return False
    if text.isascii():
        return True
    visible = text.translate(_INVISIBLE)
    return bool(visible) and not visible.isspace()


def resolve_base_url(document: HtmlElement, page_url: str | None) -> str | None:
    """The URL relative links resolve against: ``<base href>`` (itself resolved) or the page's."""
    base = document.find(".//base[@href]")
    href = base.get("href", "").strip() if base is not None else ""
    if href and not href.lower().startswith(("javascript:", "data:")):
        try:
            return urljoin(page_url, href) if page_url else href
        except ValueError:
            return page_url
    return page_url
