"""Site-wide boilerplate: text blocks that recur on many pages of one site, removed from each.

Per-page extraction cannot tell a site's template from its article when the template sits
inside the article container ("Read more on ...", a newsletter box, an author bio, a cookie
line). Seen across a batch, those blocks give themselves away: the same text on most pages of
the site. This is batch-only by design: statistics need several pages of one site, and a
single-page run never carries any.

The steps, each usable alone: ``site_key`` groups pages; ``block_fingerprints`` hashes a page's
blocks; ``recurring_blocks`` counts them over the site's pages; ``remove_recurring`` strips
them from one page and re-derives its text and Markdown. ``remove_sitewide`` runs all of it on
one site's extractions.

A block is any block-level element of the extracted content (paragraph, list item, heading,
quote, box ...) with at least ``min_words`` words. Its fingerprint is a hash of its text,
case-folded, with every run of digits read as one digit (dates and counters in a template
line change from page to page) and punctuation ignored. The outermost recurring element goes,
so a newsletter box leaves with its button. Never removed: the page's own heading (the first
``<h1>`` of the content, or a heading whose text is part of the page's title) and anything
around it; and nothing at all when what is left besides that heading would be empty or a
single word (the floor the cascade uses to call a result empty).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from ._options import MIN_WORDS
from ._parse import inner_html, parse_fragment
from ._sanitize import sanitize_html
from ._text import BLOCK_TAGS, words
from ._text import excerpt as readable_excerpt
from ._types import Extraction, TraceEntry

SITEWIDE_MIN_SHARE = 0.5
"""A block is the site's boilerplate when it recurs on at least this share of the site's pages
in the batch. Half: a template line sits on every page, and an article's own sentence is on
one; 0.5 leaves room for template variants (two newsletter boxes taking turns) and for
failed pages. 0 switches the pass off."""

SITEWIDE_MIN_PAGES = 3
"""... and on at least this many pages: two pages sharing a paragraph are more often one story
published twice than a template, so a site with fewer pages in the batch is left alone."""

SITEWIDE_MIN_WORDS = 3
"""Blocks shorter than this are never judged: one- and two-word lines ("Ingredients",
"Further reading") are section headings a site's writers reuse, not its template."""

TRACE_NAME = "sitewide"

_DIGITS = re.compile(r"\d+")
_MEDIA_TAGS = ("img", "picture", "video", "audio")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_FINGERPRINT_BYTES = 8  # 64-bit: no collision in any batch one machine can hold


@dataclass(frozen=True, kw_only=True)
class SitewideOptions:
    """Thresholds of the site-wide pass (see the module constants for why these values)."""

    min_share: float = SITEWIDE_MIN_SHARE
    min_pages: int = SITEWIDE_MIN_PAGES
    min_words: int = SITEWIDE_MIN_WORDS

    @property
    def enabled(self) -> bool:
        return self.min_share > 0

    def threshold(self, pages: int) -> int:
        """How many of ``pages`` a block must be on to count as the site's boilerplate."""
        return max(self.min_pages, math.ceil(self.min_share * pages - 1e-9))


def site_key(target: str) -> str:
    """The site a target belongs to: its host without ``www.`` (and a port if it names one);
    for a local file, the folder it is in (a saved site is a folder of pages)."""
    parts = urlsplit(target)
    if parts.scheme.lower() in ("http", "https") and parts.hostname:
        host = parts.hostname.lower().removeprefix("www.")
        return f"{host}:{parts.port}" if parts.port else host
    if target == "-":
        return "stdin"
    path = Path(parts.path) if parts.scheme.lower() == "file" else Path(target).expanduser()
    return f"file:{path.resolve().parent}"


def normalize_block(text: str) -> str:
    """A block's text as compared across pages: case-folded words, digit runs read as 0."""
    return " ".join(words(_DIGITS.sub("0", text.casefold())))


def _fingerprint(normalized: str) -> str:
    return hashlib.blake2b(normalized.encode(), digest_size=_FINGERPRINT_BYTES).hexdigest()


def _blocks(root: HtmlElement, min_words: int) -> Iterable[tuple[HtmlElement, str]]:
    """(element, fingerprint) for every block below ``root`` with enough words."""
    for element in root.iter(*BLOCK_TAGS):
        if element is root:
            continue
        normalized = normalize_block(element.text_content())
        if normalized and len(normalized.split(" ")) >= min_words:
            yield element, _fingerprint(normalized)


def block_fingerprints(html: str, *, min_words: int = SITEWIDE_MIN_WORDS) -> frozenset[str]:
    """The fingerprints of one page's blocks (its extracted HTML): all a site needs to keep."""
    if not html.strip():
        return frozenset()
    return frozenset(fp for _, fp in _blocks(parse_fragment(html), min_words))


def recurring_blocks(
    pages: Sequence[frozenset[str]], options: SitewideOptions | None = None
) -> frozenset[str]:
    """Fingerprints found on enough of one site's ``pages`` to be its boilerplate."""
    options = options or SitewideOptions()
    if not options.enabled or len(pages) < options.min_pages:
        return frozenset()
    counts = Counter(fp for page in pages for fp in page)
    needed = options.threshold(len(pages))
    return frozenset(fp for fp, count in counts.items() if count >= needed)


def _protected(root: HtmlElement, title: str | None) -> set[HtmlElement]:
    """The page's own heading(s) and every element around them."""
    normalized_title = normalize_block(title or "")
    headings = list(root.iter(*_HEADINGS))
    own = [h for h in headings[:1] if h.tag == "h1"]
    if normalized_title:
        own += [
            h for h in headings if _part_of(normalize_block(h.text_content()), normalized_title)
        ]
    protected: set[HtmlElement] = set()
    for heading in own:
        protected.add(heading)
        protected.update(heading.iterancestors())
    return protected


def _part_of(heading: str, title: str) -> bool:
    """Whether a heading's words are a run of the title's ("Story" in "Story | Site")."""
    return bool(heading) and f" {heading} " in f" {title} "


def _drop_emptied(parents: Iterable[HtmlElement], root: HtmlElement) -> None:
    """Containers that held only removed blocks go too (a box whose lines all recurred)."""
    for parent in parents:
        element = parent
        while element is not root and (up := element.getparent()) is not None:
            if element.text_content().strip() or any(True for _ in element.iter(*_MEDIA_TAGS)):
                break
            element.drop_tree()
            element = up


def remove_recurring(
    extraction: Extraction,
    recurring: frozenset[str],
    *,
    site: str,
    pages: int,
    options: SitewideOptions | None = None,
) -> Extraction:
    """``extraction`` without the blocks in ``recurring``, with a ``sitewide`` trace entry
    (count, words, an excerpt) when any went or when removing them was refused."""
    options = options or SitewideOptions()
    if not recurring or not extraction.html.strip():
        return extraction
    root = parse_fragment(extraction.html)
    protected = _protected(root, extraction.metadata.title)
    chosen: list[HtmlElement] = []
    inside_chosen: set[HtmlElement] = set()
    for element, fingerprint in _blocks(root, options.min_words):
        if element in inside_chosen or element in protected or fingerprint not in recurring:
            continue
        chosen.append(element)
        inside_chosen.update(element.iter())
    if not chosen:
        return extraction

    reason = (
        f"blocks on at least {options.threshold(pages)} of the {pages} pages of {site} "
        f"(min share {options.min_share:g})"
    )
    removed_words = sum(len(words(el.text_content())) for el in chosen)
    heading_words = sum(len(words(el.text_content())) for el in protected if el.tag in _HEADINGS)
    if len(words(root.text_content())) - removed_words - heading_words < MIN_WORDS:
        entry = TraceEntry(
            kind="post",
            name=TRACE_NAME,
            outcome="skipped",
            reason=f"{reason}, but they are all the page has",
            count=len(chosen),
            words=removed_words,
        )
        return extraction.revised(trace=(*extraction.trace, entry))

    excerpt = readable_excerpt(chosen[0])
    parents = [el.getparent() for el in chosen]
    for element in chosen:
        element.drop_tree()
    _drop_emptied((p for p in parents if p is not None), root)
    html = sanitize_html(inner_html(root)).strip()
    entry = TraceEntry(
        kind="post",
        name=TRACE_NAME,
        outcome="removed",
        reason=reason,
        count=len(chosen),
        words=removed_words,
        excerpt=excerpt,
    )
    # text and Markdown follow the new html, when read.
    return extraction.revised(html=html, trace=(*extraction.trace, entry))


def remove_sitewide(
    extractions: Sequence[Extraction], *, site: str, options: SitewideOptions | None = None
) -> list[Extraction]:
    """One site's pages with the blocks recurring across them removed (same order)."""
    options = options or SitewideOptions()
    if not options.enabled or len(extractions) < options.min_pages:
        return list(extractions)
    fingerprints = [block_fingerprints(e.html, min_words=options.min_words) for e in extractions]
    recurring = recurring_blocks(fingerprints, options)
    return [
        remove_recurring(e, recurring, site=site, pages=len(extractions), options=options)
        for e in extractions
    ]
