"""Article furniture: the headline, bylines and datelines, and picture captions.

Every stage keeps some of these around the body: readability-lxml takes the headline and byline
block when they share the body's container, Readability.js keeps figure captions and credits.
They are not the article's text (schema.org's ``articleBody`` leaves them out, and so do
Readability.js's ``content``, which moves the headline into ``title``, and trafilatura's text):
the headline, byline and date are the metadata's ``title``, ``authors`` and ``date_published``,
and captions describe pictures rather than continue the text. For RAG corpora they are noise
that repeats the title or a photo agency in every chunk. Each kind is a refinement with its own
switch, so ``--keep captions`` (say) brings them back.

Measured on the shared article benchmark (134 pages, see the extraction-quality issue's note):
captions raised static F1 from 0.957 to 0.967 and bylines by 0.001; leaving the headline out
raised it by 0.0007 static and 0.0105 on stored rendered snapshots.
"""

from __future__ import annotations

import re

from lxml.etree import XPath
from lxml.html import HtmlElement

from ._text import BLOCK_TAGS, folded_words, words

CAPTION_MAX_WORDS = 80
"""A caption is a sentence or two; a longer block with a caption-like class is a text box."""

BYLINE_MAX_WORDS = 25
HEADLINE_NEW_SHARE = 0.4
"""The most of a leading ``<h1>``'s words that may be in no title for it to be the headline
rewording the title (dropped, as the title line says it)."""
"""A byline or dateline is a line: "By A and B, Agency, updated 5:27 am, 20 November 2019"."""

HEADLINE_LEAD_BLOCKS = 3
"""The headline is looked for among the content's first blocks only: a heading further down
that repeats the title (a "Related: <title>" box) is left to the other refinements."""

_CAPTION = re.compile(r"caption|credit", re.IGNORECASE)
"""Anywhere in a class or id: "wp-caption-text", "c-figure__credit", "imageEmbedCaption"."""
_BYLINE = re.compile(
    r"(^|[\s_-])(by-?line|authors?|author-?name|dateline|timestamp|date|published|pubdate|tagline|"
    r"post-?meta|entry-?meta|article-?meta|userinfo|user-?details|user-?extras|postprofile|"
    r"updated-?at|last-?updated|last-?modified|date-?modified)"
    r"($|[\s_-])",
    re.IGNORECASE,
)
"""A whole word of a class or id. "userinfo", "userDetails", "postprofile": a forum member's
card beside each post (vBulletin, XenForo, phpBB; on wcxb-dev's forums 0.8128 -> 0.8139).
"tagline" is old Reddit's line over each comment ("[–]name 188 points 17 hours ago"); on
wcxb-dev it moved only that thread (0562 +0.014). "UpdatedAt", "last-updated": a manual
page's "Updated about 1 year ago" (ReadMe, Docusaurus's ``theme-last-updated``)."""
_MEDIA = ("img", "picture", "video", "svg", "iframe", "audio")


_HINT_VALUES = XPath(
    "descendant::*/@class | descendant::*/@id | descendant::*/@itemprop | descendant::*/@rel"
    " | descendant::*/@data-testid"
)
"""A union of the five attribute steps, in document order: a filter on every attribute's
``name()`` took twice as long (1.4 against 2 to 3 ms on a whole wcxb-dev page)."""


def _hinted(root: HtmlElement, pattern: re.Pattern[str]) -> list[HtmlElement]:
    """Elements below ``root``, in document order, with a class, id, itemprop, rel or
    data-testid that ``pattern`` finds something in.

    lxml picks the attributes out in C and each distinct value is searched once (a few class
    names repeat on every block). Joining and searching each element's attributes in Python
    made the two refinements below take about 250 ms on the 50,000-element synthetic page;
    this way they take about 125 ms. Searching each value alone finds what searching the
    values joined by spaces finds (a property test checks it)."""
    searched: dict[str, bool] = {}
    found: dict[HtmlElement, None] = {}
    for value in _HINT_VALUES(root):
        matched = searched.get(value)
        if matched is None:
            matched = searched[value] = pattern.search(value) is not None
        if matched:
            found[value.getparent()] = None
    return list(found)


def _has_media(element: HtmlElement) -> bool:
    return element.tag in _MEDIA or any(True for _ in element.iterdescendants(*_MEDIA))


def _text_beside_media(figure: HtmlElement) -> list[HtmlElement]:
    """What a picture's ``<figure>`` holds besides the picture: caption, ``<cite>`` credit."""
    return [
        element
        for element in figure.iterdescendants()
        if isinstance(element.tag, str)
        and not _has_media(element)
        and element.text_content().strip()
    ]


def select_captions(root: HtmlElement) -> list[HtmlElement]:
    """``<figcaption>``s, the text beside a figure's picture, and short caption or credit
    blocks; the picture itself is kept. A ``<figure>`` without a picture (a pull quote, a
    table, a code listing) is content and stays whole."""
    hinted = set(_hinted(root, _CAPTION))
    found = []
    for element in root.iter():
        if not isinstance(element.tag, str) or element is root:
            continue
        if element.tag == "figcaption":
            found.append(element)
        elif element.tag == "figure" and _has_media(element):
            found.extend(_text_beside_media(element))
        elif (
            element in hinted
            and not _has_media(element)
            and len(words(element.text_content())) < CAPTION_MAX_WORDS
        ):
            found.append(element)
    return list(dict.fromkeys(found))  # nested figures name the same text twice


def select_bylines(root: HtmlElement, *, keep_authors: bool = False) -> list[HtmlElement]:
    """Short author, byline and date lines (not paragraphs that mention a date).

    ``keep_authors`` (a thread's posts): what such a line holds besides its author's name
    (the date, the post's number, the member's post count) goes, and the name stays."""
    found = [
        element
        for element in _hinted(root, _BYLINE)
        if element.tag not in _MEDIA
        and element.find(".//p") is None
        and len(words(element.text_content())) < BYLINE_MAX_WORDS
    ]
    return sparing_authors(found) if keep_authors else found


def sparing_authors(found: list[HtmlElement]) -> list[HtmlElement]:
    """``found`` less the authors' names in it: an element that is a name stays, one that
    holds a name is replaced by its parts that hold none."""
    chosen: list[HtmlElement] = []
    for element in found:
        if _is_author_name(element):
            continue
        chosen.extend(_all_but_names(element) if holds_author_name(element) else [element])
    return chosen


AUTHOR_NAME_MAX_WORDS = 4
"""A post's author is named in a few words ("Odile R.", "marisol_k"); a longer element with an
author-like class is the member's card (name, title, post count, join date)."""
_AUTHOR = re.compile(
    r"author|by-?line|user-?name|creator|poster|member-?name|(?:^|[\s_-])user(?:$|[\s_-])",
    re.IGNORECASE,
)
_PROFILE = re.compile(
    r"/(?:u|users?|members?|profiles?|people)/|(?:^|/)(?:user\?id=|member\.php\?(?:u=|\d|action=profile)"
    r"|memberlist\.php\?mode=viewprofile)"
    r"|/~[\w.-]+/?$",
    re.IGNORECASE,
)
"""A link to a member's profile page: Discourse's /u/, XenForo's /members/, Hacker News's
user?id=, vBulletin's member.php, phpBB's memberlist.php, Lobsters' /~name."""
_NAMING_ATTRIBUTES = ("class", "id", "itemprop", "rel", "data-testid")
_NOT_A_NAME = re.compile(r"\b(?:view|profile|posts|messages|log ?in|register)\b", re.IGNORECASE)
"""The words of a member card's links, not of a name ("View Profile", "Find all posts")."""


def _is_author_name(element: HtmlElement) -> bool:
    if not isinstance(element.tag, str):
        return False
    text = element.text_content()
    if not text.strip() or len(words(text)) > AUTHOR_NAME_MAX_WORDS or _NOT_A_NAME.search(text):
        return False
    if element.tag == "a" and _PROFILE.search(element.get("href", "")):
        return True
    if element.find(".//time") is not None or len(element.findall(".//a")) > 1:
        return False  # a post's whole header line (name, permalink, date), not the name
    return any(_AUTHOR.search(element.get(name) or "") for name in _NAMING_ATTRIBUTES)


def holds_author_name(element: HtmlElement) -> bool:
    """Whether ``element`` is or holds an author's name (a short profile link or named one)."""
    return any(_is_author_name(inner) for inner in element.iter())


def _all_but_names(element: HtmlElement) -> list[HtmlElement]:
    """The parts of ``element`` that hold no author's name, as high up as they go."""
    parts: list[HtmlElement] = []
    for child in element:
        if not isinstance(child.tag, str) or _is_author_name(child):
            continue
        parts.extend(_all_but_names(child) if holds_author_name(child) else [child])
    return parts


def normalise_title(text: str) -> str:
    """Casefolded words, so "Esper accuses China …" matches "Esper Accuses China ..."."""
    return " ".join(folded_words(text))


def rewords(heading: str, titles: frozenset[str]) -> bool:
    """Whether ``heading`` shares at least half the words of the shorter of it and a title,
    and says little besides: at most ``HEADLINE_NEW_SHARE`` of its words are in no title. A
    one-word title ("Pricing", "Menu") shares a word with most of its page's headings, and
    "Simple pricing that scales with your team" is said nowhere else."""
    said = set(heading.split())
    for title in titles:
        words_of_title = set(title.split())
        shorter = min(len(said), len(words_of_title))
        if shorter and len(said & words_of_title) * 2 >= shorter:
            new = said - set().union(*(set(other.split()) for other in titles))
            return len(new) <= HEADLINE_NEW_SHARE * len(said)
    return False


def select_headline(root: HtmlElement, titles: frozenset[str]) -> list[HtmlElement]:
    """The headline: among the content's first blocks, an ``<h1>`` that rewords one of the
    page's titles or a heading that repeats one (``titles`` normalised by ``normalise_title``),
    and any other line there that repeats a title word for word (eBay shows the item's name
    in its ``<h1>`` and again in a bold line under it)."""
    chosen: list[HtmlElement] = []
    blocks = 0
    for element in root.iter():
        if not isinstance(element.tag, str) or element is root or _within(element, chosen):
            continue
        if element.tag in ("h1", "h2", "h3"):
            said = normalise_title(element.text_content())
            # An <h1> leading the content is the headline even when it words the title
            # differently (a shorter or a longer version), but not when it says something
            # else: a service page's <title> "Ferrule pricing" over its <h1> "Rotas your
            # whole clinic can live with" leaves the <h1> the only place that sentence is.
            # With no title to match (a fragment read on its own), a leading <h1> is still it.
            rewording = not titles or rewords(said, titles)
            if said in titles or (element.tag == "h1" and rewording and not chosen):
                chosen.append(element)
                continue
        elif element.tag in _REPEATING and _repeats_title(element, titles):
            chosen.append(element)
            continue
        if element.tag in _LEAD_BLOCKS:
            blocks += 1
            if blocks >= HEADLINE_LEAD_BLOCKS:
                break
    return chosen


_REPEATING = frozenset({"p", "div", "span", "strong", "b", "a"})
"""Elements a repeated title is taken out of besides headings: a line, or one of its parts."""
_LEAD_BLOCKS = frozenset({"p", "ul", "ol", "table", "blockquote", "pre"})
"""The blocks counted towards ``HEADLINE_LEAD_BLOCKS``."""


def _repeats_title(element: HtmlElement, titles: frozenset[str]) -> bool:
    """Whether ``element`` is a line (no block inside it) whose words are a title's. Blocks are
    looked for first: that stops at a wrapper's first block, where reading the wrapper's text
    would read the whole content once for every wrapper the walk enters."""
    inner_tags = (inner.tag for inner in element.iterdescendants())
    if any(isinstance(tag, str) and tag in BLOCK_TAGS for tag in inner_tags):
        return False
    return normalise_title(element.text_content()) in titles


def _within(element: HtmlElement, chosen: list[HtmlElement]) -> bool:
    return any(outer in chosen for outer in element.iterancestors())
