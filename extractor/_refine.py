"""Refinements applied to every stage's candidate, after the stage and before post-processing.

Like the pre-clean rules, each has one switch (its name in ``ExtractOptions.rules``) and shows
up in the trace when it removes something:

- ``link-farms``: blocks inside the content that are mostly links (prev/next lines, tag lists,
  "more from us" boxes), which every stage tends to keep when they sit next to the article.
- ``teasers``: lines that are a link alone, where no single block is mostly links: runs of
  three or more sibling ones with their short label ("You may also like..." then a headline
  a paragraph), and those set in capitals between the paragraphs ("SEAN SPICER ELIMINATED
  FROM ..."). Not on listings, collections and products, whose records such lines are.
- ``captions``, ``bylines``, ``headline``: the article's furniture around its text (picture
  captions and credits, author and date lines, the headline that repeats the title): see
  ``_furniture``.
- ``article-boundary``: when the page marks exactly one ``<article>`` and the candidate is mostly
  that article, top-level blocks that are not part of it (a sign-off box, a newsletter plug
  merged in as a sibling) are dropped: the author drew that boundary.
- ``actions``: calls to action and interface controls on a line of their own ("Get started",
  "Add to cart", "Edit this page"): see ``_actions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import lxml.etree
from lxml.html import HtmlElement

from ._actions import select_standalone_actions
from ._furniture import select_bylines, select_captions, select_headline, sparing_authors
from ._rules import remove_and_record
from ._text import folded_words, spaced_text, words
from ._types import TraceEntry

LINK_FARM_DENSITY = 0.5
"""Blocks whose text is over half link text are link farms (the scorer's hard link gate)."""

LINK_FARM_MIN_LINKS = 2
"""... when they hold at least two links: one link in a sentence is prose, two is a prev/next."""

POST_HEADER_MAX_WORDS = 12
"""On a thread, a link farm of up to this many words that holds an author's name is a post's
header ("wren_k 5 hours ago | parent | next [–]"): the name stays. A longer one is a story's
line or a list of members, and goes whole."""

PRUNABLE_TAGS = frozenset(
    {"div", "section", "ul", "ol", "table", "nav", "aside", "form", "p", "dl", "center"}
)

LINK_RUN_MIN_LINES = 3
"""This many sibling lines in a row that are each a link and nothing else
("You may also like..." then a headline a paragraph): one such line is a link in the
article's flow, two a prev/next pair, three a list that is not marked up as one."""

LINK_LINE_SHARE = 0.9
"""A line is a link and nothing else when its link text is at least this share of its text
(a trailing "[Video]" or bullet may sit outside the <a>)."""

LINK_RUN_LABEL_WORDS = 6
"""The line just before such a run, without a link and at most this many words long, is its
label ("Related:", "You may also like...", "More from the newsroom")."""

_LINE_TAGS = frozenset({"p", "div", "h2", "h3", "h4", "h5", "h6"})

SHOUTED_MIN_WORDS = 3
SHOUTED_UPPER_SHARE = 0.8
"""A line that is a link alone, of at least ``SHOUTED_MIN_WORDS`` words with at least this
share of its letters in capitals, is a teaser set in the page's kicker style ("SEAN SPICER
ELIMINATED FROM 'DANCING WITH THE STARS'", "CLICK HERE TO GET THE APP") between the
article's paragraphs: on the article benchmark's static readings 14 of 15 such lines were
not in the ground truth, against 3 of 22 capitalised lines that are no link."""

BOUNDARY_MIN_WORDS = 50
"""An <article> with fewer words is a teaser card, not a boundary worth trusting."""

BOUNDARY_MIN_COVERAGE = 0.5
"""Trim only when at least half the candidate's shingles lie inside the article."""

BOUNDARY_BLOCK_OVERLAP = 0.5
"""A top-level block with less than half its shingles inside the article is outside it."""

SHINGLE = 4


def _shingles_of(tokens: list[str]) -> set[tuple[str, ...]]:
    if len(tokens) < SHINGLE:
        return {tuple(tokens)} if tokens else set()
    # zip of shifted views: the same shingles as slicing at each offset, at a third of the cost.
    return set(zip(*(tokens[i:] for i in range(SHINGLE)), strict=False))


def shingles(text: str) -> set[tuple[str, ...]]:
    """4-word shingles (a short block that has fewer words is one shingle of itself)."""
    return _shingles_of(folded_words(text))


def article_boundary(document: HtmlElement) -> frozenset[tuple[str, ...]] | None:
    """Shingles of the page's single top-level <article>, or None when there is not one."""
    articles = [
        el
        for el in document.iter("article")
        if not any(a.tag == "article" for a in el.iterancestors())
    ]
    if len(articles) != 1:
        return None
    # spaced: list items and cells written side by side ("£14</p></li><li><p>5-class pass")
    # must not run together into words the candidate's blocks never hold ("145")
    tokens = folded_words(spaced_text(articles[0]))
    if len(tokens) < BOUNDARY_MIN_WORDS:
        return None
    return frozenset(_shingles_of(tokens))


@dataclass(frozen=True)
class RefineContext:
    """What the refinements know of the page beyond the candidate: the shingles of its single
    <article> and its title(s), normalised with ``_furniture.normalise_title``."""

    boundary: frozenset[tuple[str, ...]] | None
    titles: frozenset[str] = frozenset()
    keep_authors: bool = False
    """A thread's posts: the ``bylines`` refinement leaves each post's author's name."""


def _collapsed_length(text: str | None) -> int:
    """Length of a text with its whitespace runs collapsed to one space and stripped, as the
    scorer's ``block_features`` measures text."""
    return len(" ".join(text.split())) if text else 0


LinkSums = dict[HtmlElement, tuple[int, int, int]]


def _link_sums(elements: list[HtmlElement]) -> LinkSums:
    """Each element's text length, link text length and link count, in one pass from the
    leaves up (``elements`` in document order): reading each element's text on its own costs
    the square of the depth on a deeply nested page."""
    # The scorer's block_features, cut down to the three sums read here: its punctuation
    # counts and class hints were most of its cost.
    sums: LinkSums = {}
    for element in reversed(elements):  # children come after their parent in document order
        text, links, count = _collapsed_length(element.text), 0, 0
        for child in element:
            text += _collapsed_length(child.tail)
            below = sums.get(child)
            if below is not None:  # None: a comment or processing instruction
                text += below[0]
                links += below[1]
                count += below[2]
        if element.tag == "a":
            links, count = text, count + 1
        sums[element] = (text, links, count)
    return sums


def _link_farms(root: HtmlElement, context: RefineContext) -> list[HtmlElement]:
    """Blocks that are mostly links; on a thread (``keep_authors``) less the posts' authors'
    names: a post's header line (a profile link, a permalink date, a collapse toggle) is all
    links."""
    elements = list(root.iter(lxml.etree.Element))
    sums = _link_sums(elements)
    farms = [
        el
        for el in elements
        if el is not root
        and el.tag in PRUNABLE_TAGS
        and sums[el][2] >= LINK_FARM_MIN_LINKS
        and sums[el][0]
        and sums[el][1] / sums[el][0] > LINK_FARM_DENSITY
    ]
    if not context.keep_authors:
        return farms
    headers = [el for el in farms if len(words(el.text_content())) <= POST_HEADER_MAX_WORDS]
    spared = set(headers)
    return [el for el in farms if el not in spared] + sparing_authors(headers)


def _teasers(root: HtmlElement, context: RefineContext) -> list[HtmlElement]:
    elements = list(root.iter(lxml.etree.Element))
    sums = _link_sums(elements)
    return _link_runs(elements, sums) + _shouted_links(root, elements, sums)


def _link_runs(elements: list[HtmlElement], sums: LinkSums) -> list[HtmlElement]:
    """Runs of ``LINK_RUN_MIN_LINES`` sibling lines that are each one link and nothing else,
    with the short line that labels the run: link lists written as paragraphs, which
    ``_link_farms`` does not see, as each block holds one link."""
    selected: list[HtmlElement] = []
    for parent in elements:
        run: list[HtmlElement] = []
        for child in [*parent, None]:
            if child is not None and not isinstance(child.tag, str):
                continue  # a comment between two lines does not end the run
            if child is not None and child.tag in _LINE_TAGS and _is_link_line(child, sums):
                run.append(child)
                continue
            if len(run) >= LINK_RUN_MIN_LINES:
                label = run[0].getprevious()
                while label is not None and not isinstance(label.tag, str):
                    label = label.getprevious()
                if label is not None and _is_label(label, sums):
                    selected.append(label)
                selected.extend(run)
            run = []
    return selected


def _shouted_links(
    root: HtmlElement, elements: list[HtmlElement], sums: LinkSums
) -> list[HtmlElement]:
    """Lines that are a link alone, written in capitals (``SHOUTED_UPPER_SHARE``)."""
    return [
        line
        for line in elements
        if line is not root
        and line.tag in _LINE_TAGS
        and _is_link_line(line, sums)
        and next((el for el in line.iterdescendants() if el.tag in _LINE_TAGS), None) is None
        and len(line.text_content().split()) >= SHOUTED_MIN_WORDS
        and _capitals_share(line.text_content()) >= SHOUTED_UPPER_SHARE
    ]


def _capitals_share(text: str) -> float:
    letters = [char for char in text if char.isalpha()]
    return sum(char.isupper() for char in letters) / len(letters) if letters else 0.0


def _is_link_line(element: HtmlElement, sums: LinkSums) -> bool:
    text, linked, count = sums[element]
    return bool(text) and count > 0 and linked >= LINK_LINE_SHARE * text


def _is_label(element: HtmlElement, sums: LinkSums) -> bool:
    text, _, count = sums[element]
    return (
        element.tag in _LINE_TAGS
        and not count
        and 0 < text
        and len(element.text_content().split()) <= LINK_RUN_LABEL_WORDS
    )


def _top_level_blocks(root: HtmlElement) -> list[HtmlElement]:
    # Look through wrappers (readability's <div><div>) to the blocks that make up the content.
    while len(root) == 1 and not (root.text or "").strip() and isinstance(root[0].tag, str):
        root = root[0]
    return [child for child in root if isinstance(child.tag, str)]


def _outside_article(root: HtmlElement, context: RefineContext) -> list[HtmlElement]:
    boundary = context.boundary
    if not boundary:
        return []
    all_shingles = shingles(root.text_content())
    if not all_shingles or len(all_shingles & boundary) / len(all_shingles) < BOUNDARY_MIN_COVERAGE:
        return []
    outside = []
    for block in _top_level_blocks(root):
        tokens = folded_words(spaced_text(block))
        if len(tokens) < SHINGLE:
            continue  # a short heading or caption: too little text to judge
        block_shingles = _shingles_of(tokens)
        if (
            block_shingles
            and len(block_shingles & boundary) / len(block_shingles) < BOUNDARY_BLOCK_OVERLAP
        ):
            outside.append(block)
    return outside


@dataclass(frozen=True)
class Refinement:
    name: str
    description: str
    select: Callable[[HtmlElement, RefineContext], list[HtmlElement]]


REFINEMENTS: tuple[Refinement, ...] = (
    Refinement("link-farms", "blocks inside the content that are mostly links", _link_farms),
    # Off on listings, collections and products (``_typed.typed_rules``): there lines that are
    # a link alone are the records.
    Refinement(
        "teasers",
        "lines that are a link alone, in a run of three or in capitals (related stories)",
        _teasers,
    ),
    Refinement("article-boundary", "blocks outside the page's single <article>", _outside_article),
    # The furniture goes last: the article boundary judges a candidate's blocks as the stage
    # gave them.
    Refinement(
        "captions",
        "picture captions and credits",
        lambda root, context: select_captions(root),
    ),
    Refinement(
        "bylines",
        "author, byline and date lines (on forums and collections, all but the authors' names)",
        lambda root, context: select_bylines(root, keep_authors=context.keep_authors),
    ),
    Refinement(
        "headline",
        "the headline repeating the title (it is the metadata's title)",
        lambda root, context: select_headline(root, context.titles),
    ),
    # On the reading, not the page: a product card's "Shop now" is how the stages tell a
    # grid of records from prose.
    Refinement(
        "actions",
        "calls to action and interface controls standing alone (sign in, add to cart ...)",
        lambda root, context: select_standalone_actions(root),
    ),
)
REFINEMENT_NAMES: frozenset[str] = frozenset(r.name for r in REFINEMENTS)


def refine(root: HtmlElement, context: RefineContext, enabled: frozenset[str]) -> list[TraceEntry]:
    """Apply every enabled refinement to a candidate the cascade owns; return trace entries."""
    trace: list[TraceEntry] = []
    for refinement in REFINEMENTS:
        if refinement.name not in enabled:
            continue
        entry = remove_and_record(
            refinement.select(root, context), "post", refinement.name, refinement.description
        )
        if entry is not None:
            trace.append(entry)
    return trace
