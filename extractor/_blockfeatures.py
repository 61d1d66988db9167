"""What the block model reads of each block: the judges' votes and the block's own shape.

The judges are the cascade's reading and trafilatura's: a block's vote from each is the share
of its word trigrams (its words, for a block of one or two words) that the reading holds. Then
the block itself (length, link density, tag, punctuation, digits, a price), its ancestors'
tags and class names (matched against groups of words that say navigation, footer, comments,
content, product, cards ...), its shape among siblings, how often its text recurs, where it
lies against the first ``<h1>``, the page's type and how much of the page each reading holds,
and the neighbours' votes (a short block between two kept ones is kept, as jusText does).
``FEATURES`` names the columns; the model (``_blockmodel``) was trained on exactly these.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ._pagetype import PAGE_TYPES, PageType
from ._segment import PageBlock, tokens_of

TAGS = ("p", "h1", "h2", "h3", "h4", "li", "pre", "table", "td", "blockquote", "dt", "dd")
TAGS_OTHER = (*TAGS, "div", "span", "a", "other")
CLASS_GROUPS: dict[str, str] = {
    "nav": r"nav|menu|breadcrumb|topbar|navbar|masthead",
    "foot": r"foot|copyright|legal",
    "side": r"sidebar|side-bar|aside|widget|rail",
    "comment": r"comment|reply|respon|discuss",
    "share": r"share|social|follow|sharing",
    "related": r"related|recommend|more-|popular|trending|also|teaser|promo",
    "ad": r"(^|[\s_-])ads?([\s_-]|$)|advert|sponsor|banner",
    "form": r"newsletter|subscri|signup|sign-up|login|search|cookie|consent|modal|popup",
    "content": r"content|article|post|entry|main|body|text|story|prose|markdown",
    "product": r"product|price|descr|detail|spec|feature|tab",
    "item": r"item|card|tile|result|listing|grid|list",
    "meta": r"author|byline|date|time|meta|tag|categor",
    "filter": r"filter|facet|sort|pagination|pager|paging",
    "header": r"header|hero|title|headline",
    "code": r"code|highlight|syntax",
}
_GROUPS = {name: re.compile(pattern) for name, pattern in CLASS_GROUPS.items()}
"""Searched in the lower-cased names: ``re.IGNORECASE`` took eight times as long (1,270 against
156 ms over the 4,597 distinct class strings of 150 wcxb-dev pages, every flag the same)."""
ANCESTOR_TAGS = ("nav", "footer", "header", "aside", "main", "article", "form", "li", "table")
ANCESTOR_TAGS_ALL = (*ANCESTOR_TAGS, "ul", "section")
NEAR_ANCESTORS = 3
"""The nearest ancestors, whose class names are read apart from the whole chain's."""
CONTEXT_WINDOW = 7
"""Blocks averaged for the neighbourhood's votes (the block in the middle)."""
_PRICE = re.compile(r"[$€£¥]\s?\d|\d[\d.,]*\s?(€|eur|usd)\b", re.IGNORECASE)
_HEADING_TAGS = {"h5": "h4", "h6": "h4"}

FEATURES: tuple[str, ...] = (
    "log_words", "link_density", "vote_ours", "vote_theirs", "vote_both", "vote_either",
    "depth",
    *(f"tag_{tag}" for tag in TAGS_OTHER),
    *(f"class_{name}" for name in CLASS_GROUPS),
    *(f"near_class_{name}" for name in CLASS_GROUPS),
    *(f"inside_{tag}" for tag in ANCESTOR_TAGS_ALL),
    "punctuation", "ends_sentence", "digit_share", "word_length", "price",
    "log_siblings_alike", "log_repeats", "in_run", "after_h1", "log_from_h1", "page_has_h1",
    *(f"type_{kind}" for kind in PAGE_TYPES),
    "type_shown", "page_share_ours", "page_share_theirs", "log_blocks", "log_page_words",
    "prev_ours", "next_ours", "prev_theirs", "next_theirs", "prev_links", "next_links",
    "prev_words", "next_words", "window_ours", "window_theirs", "voted_words_before",
    "position",
)  # fmt: skip
"""The model's columns, in order."""


class Reading:
    """A judge's reading, as the word trigrams (and words) a block's vote is measured on."""

    def __init__(self, text: str) -> None:
        tokens = tokens_of(text)
        self.words = frozenset(tokens)
        self.trigrams = frozenset(zip(tokens, tokens[1:], tokens[2:], strict=False))

    def vote(self, tokens: Sequence[str]) -> float:
        """The share of the block's trigrams (words, below three) this reading holds."""
        if len(tokens) >= 3:
            grams = set(zip(tokens, tokens[1:], tokens[2:], strict=False))
            return sum(gram in self.trigrams for gram in grams) / len(grams)
        return sum(token in self.words for token in tokens) / len(tokens) if tokens else 0.0


def block_matrix(
    blocks: Sequence[PageBlock], ours: Reading, theirs: Reading, page_type: PageType
) -> npt.NDArray[np.float64]:
    """One row of ``FEATURES`` per block."""
    flags: dict[str, list[float]] = {}  # blocks of one grid share their ancestors' classes
    own = np.array([_own(block, ours, theirs, flags) for block in blocks], dtype=np.float64)
    count = len(blocks)
    sizes = np.array([len(block.tokens) for block in blocks], dtype=np.float64)
    total = float(sizes.sum()) or 1.0
    votes_ours, votes_theirs = own[:, 2], own[:, 3]
    page = [
        *(float(page_type.kind == kind) for kind in PAGE_TYPES),
        float(page_type.shown),
        float((sizes * votes_ours).sum()) / total,
        float((sizes * votes_theirs).sum()) / total,
        math.log1p(count),
        math.log1p(total),
    ]
    voted = np.cumsum(sizes * np.maximum(votes_ours, votes_theirs))
    context = [
        *_neighbours(votes_ours),
        *_neighbours(votes_theirs),
        *_neighbours(own[:, 1]),
        *_neighbours(own[:, 0]),
        _window(votes_ours),
        _window(votes_theirs),
        voted / (voted[-1] if voted[-1] > 0 else 1.0),
        np.arange(count) / max(count - 1, 1),
    ]
    return np.column_stack([own, np.tile(page, (count, 1)), np.column_stack(context)])


def _class_flags(marks: str, flags: dict[str, list[float]]) -> list[float]:
    """Which ``CLASS_GROUPS`` the class names ``marks`` say, memoised in ``flags``."""
    known = flags.get(marks)
    if known is None:
        lowered = marks.lower()
        known = flags[marks] = [float(bool(group.search(lowered))) for group in _GROUPS.values()]
    return known


def _own(
    block: PageBlock, ours: Reading, theirs: Reading, flags: dict[str, list[float]]
) -> list[float]:
    words = len(block.tokens)
    vote_ours, vote_theirs = ours.vote(block.tokens), theirs.vote(block.tokens)
    tag = _HEADING_TAGS.get(str(block.element.tag), str(block.element.tag))
    tag = tag if tag in TAGS_OTHER else "other"
    every_class = " ".join(marks for _, marks in block.ancestors)
    near_class = " ".join(marks for _, marks in block.ancestors[:NEAR_ANCESTORS])
    above = {tag for tag, _ in block.ancestors[1:]}
    text = block.text
    return [
        math.log1p(words),
        min(block.link_tokens / words, 1.0),
        vote_ours,
        vote_theirs,
        vote_ours * vote_theirs,
        max(vote_ours, vote_theirs),
        block.depth / 30,
        *(float(tag == name) for name in TAGS_OTHER),
        *_class_flags(every_class, flags),
        *_class_flags(near_class, flags),
        *(float(name in above) for name in ANCESTOR_TAGS_ALL),
        sum(text.count(mark) for mark in ".,;:!?") / words,
        float(text.rstrip()[-1:] in (".", "!", "?", ":")),
        sum(map(str.isdigit, text)) / max(len(text), 1),
        sum(len(token) for token in block.tokens) / words / 10,
        float(bool(_PRICE.search(text))),
        math.log1p(block.siblings_alike),
        math.log1p(block.repeats - 1),
        float(block.in_run),
        float(block.from_h1 >= 0),
        math.copysign(math.log1p(abs(block.from_h1)), block.from_h1),
        float(block.page_has_h1),
    ]


def _neighbours(column: npt.NDArray[np.float64]) -> list[npt.NDArray[np.float64]]:
    before, after = np.zeros_like(column), np.zeros_like(column)
    before[1:], after[:-1] = column[:-1], column[1:]
    return [before, after]


def _window(column: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    half = CONTEXT_WINDOW // 2
    kernel = np.ones(CONTEXT_WINDOW) / CONTEXT_WINDOW
    return np.convolve(np.pad(column, half), kernel, mode="valid")
