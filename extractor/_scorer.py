"""Our own fallback scorer: the last stage of the cascade, linear in the size of the page.

For each candidate block (always including the root itself, so a flat ``<body><p>`` page works)::

    score = textLength * (1 - linkDensity)
          + PARAGRAPH_WEIGHT * paragraphCount
          + PUNCTUATION_WEIGHT * punctuationCount
          + TAG_BONUS[tag] + HINT_WEIGHT * (positive class/id hint - negative class/id hint)
          x LINK_GATE_* when link density is high
          x LIST_GATE when the block is dominated by <li> text

Features are summed bottom-up in one pass over the tree, so a page costs O(elements) however
deeply it nests. The highest-scoring block wins; the winner then descends into a child block
that holds most of its score (so <body> gives way to the <article> inside it), but never out
of an <article> into a part of it.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import cast

import lxml.etree
from lxml.html import HtmlElement

MAX_ELEMENTS = 50_000
"""Above this the scorer gives up at once (a Skip in the trace) instead of spending seconds: the
last resort stays cheap on any page (tunables: docs/architecture.md)."""

PARAGRAPH_WEIGHT = 25
"""Per <p> in the block: the original design's weight, a heuristic for our fixtures (change it
only as measured on the corpora, F1 and time)."""

PUNCTUATION_WEIGHT = 10
"""Per sentence punctuation mark: prose has it, menus and tag clouds do not (the original
design's weight, a heuristic like ``PARAGRAPH_WEIGHT``)."""

LINK_GATE_SOFT = (0.35, 0.6)
"""Above 0.35 link density, x0.6: Boilerpipe's CleanEval re-validation of the link-density cut."""

LINK_GATE_HARD = (0.5, 0.25)
"""Above 0.5, x0.25: stops menus and link farms from winning on size alone."""

LIST_GATE = (0.6, 0.4)
"""When over 60% of the block's text is in <li>, x0.4: a menu of items is not an article."""

TAG_BONUS = {
    "article": 300,
    "main": 200,
    "header": -300,
    "aside": -500,
    "footer": -500,
    "nav": -1000,
}
"""Semantic tags, in characters of text: a bonus of about one short paragraph each way."""

HINT_WEIGHT = 200
"""Class/id hints, in characters: enough to break ties between blocks of similar size."""

DESCEND_SHARE = 0.6
"""Move from a block into its best child block when the child holds at least this share of its
score: a sidebar or related-links box rarely holds over 40% of a page's text in our fixtures."""

OWN_PARAGRAPH_PROSE = 100
"""A block holding at least this many characters of prose in its own <p> children is where the
article is written: the descent stops there instead of dropping those paragraphs (nested <div>
pages, an intro paragraph before the body's wrapper). About one sentence."""

_BOILERPLATE_TAGS = frozenset({"header", "footer", "nav", "aside"})

CANDIDATE_TAGS = frozenset(
    {
        "html",
        "body",
        "div",
        "article",
        "main",
        "section",
        "td",
        "blockquote",
        "header",
        "footer",
        "nav",
        "aside",
        "form",
        "center",
        "font",
    }
)

_POSITIVE_HINT = re.compile(
    r"article|body|content|entry|hentry|main|page|post|text|blog|story", re.IGNORECASE
)
_NEGATIVE_HINT = re.compile(
    r"comment|footer|masthead|meta|nav|sidebar|sponsor|widget|share|social|related|promo|"
    r"banner|menu|breadcrumb|popular|newsletter|subscribe|advert|\bad-|\bads\b|cookie",
    re.IGNORECASE,
)
_PUNCTUATION = re.compile(r"[.,;:!?\u3001\u3002\uff0c\uff0e\uff01\uff1f\uff1b\uff1a]")


class TooManyElements(Exception):
    """The page is over MAX_ELEMENTS; the scorer will not try."""


@dataclass
class BlockFeatures:
    text: int = 0
    links: int = 0  # characters of text inside <a>
    link_count: int = 0
    list_text: int = 0
    paragraphs: int = 0
    punctuation: int = 0
    # Text outside links and outside blocks that hint or tag themselves as boilerplate: what a
    # descent into a child block must not leave much of behind.
    prose: int = 0

    @property
    def link_density(self) -> float:
        return self.links / self.text if self.text else 0.0


@dataclass(frozen=True)
class ScoredBlock:
    """The winning block: a copy the caller owns, with why it won."""

    element: HtmlElement
    score: float
    path: str
    candidates: int


def _text_len(text: str | None) -> tuple[int, int]:
    if not text:
        return 0, 0
    collapsed = " ".join(text.split())
    return len(collapsed), len(_PUNCTUATION.findall(collapsed))


def _collect(root: HtmlElement) -> list[HtmlElement]:
    elements: list[HtmlElement] = []
    for element in root.iter(lxml.etree.Element):
        elements.append(element)
        if len(elements) > MAX_ELEMENTS:
            raise TooManyElements(f"over {MAX_ELEMENTS:,} elements")
    return elements


def block_features(elements: list[HtmlElement]) -> dict[HtmlElement, BlockFeatures]:
    """Sum text, link, list, paragraph and punctuation counts bottom-up in one pass."""
    features: dict[HtmlElement, BlockFeatures] = {}
    for element in reversed(elements):  # children come after their parent in document order
        own = BlockFeatures()
        text, punctuation = _text_len(element.text)
        own.text, own.punctuation, own.prose = text, punctuation, text
        for child in element:
            tail, tail_punctuation = _text_len(child.tail)
            own.text += tail
            own.prose += tail
            own.punctuation += tail_punctuation
            sub = features.get(child)
            if sub is None:  # comments and processing instructions
                continue
            own.prose += sub.prose
            own.text += sub.text
            own.links += sub.links
            own.link_count += sub.link_count
            own.list_text += sub.list_text
            own.paragraphs += sub.paragraphs
            own.punctuation += sub.punctuation
        tag = element.tag
        if tag == "a" or tag in _BOILERPLATE_TAGS or _hint(element) < 0:
            own.prose = 0
        if tag == "a":
            own.links = own.text
            own.link_count += 1
        elif tag == "li":
            own.list_text = own.text
        elif tag == "p":
            own.paragraphs += 1
        features[element] = own
    return features


def _hint(element: HtmlElement) -> int:
    names = f"{element.get('class', '')} {element.get('id', '')}"
    if not names.strip():
        return 0
    return int(bool(_POSITIVE_HINT.search(names))) - int(bool(_NEGATIVE_HINT.search(names)))


def block_score(element: HtmlElement, feat: BlockFeatures) -> float:
    """The module docstring's formula for one block, from its summed features."""
    density = feat.link_density
    # A scored block is an element, so its tag is a str (types-lxml allows bytes and QName).
    tag = "main" if element.get("role") == "main" else cast(str, element.tag)
    score = (
        feat.text * (1 - density)
        + PARAGRAPH_WEIGHT * feat.paragraphs
        + PUNCTUATION_WEIGHT * feat.punctuation
        + TAG_BONUS.get(tag, 0)
        + HINT_WEIGHT * _hint(element)
    )
    if density > LINK_GATE_HARD[0]:
        score *= LINK_GATE_HARD[1]
    elif density > LINK_GATE_SOFT[0]:
        score *= LINK_GATE_SOFT[1]
    if feat.text and feat.list_text / feat.text > LIST_GATE[0]:
        score *= LIST_GATE[1]
    return score


def best_block(root: HtmlElement) -> ScoredBlock | None:
    """Score every candidate block of ``root`` and return a pruned copy of the best one.

    Returns None when no block has any text. Raises TooManyElements over MAX_ELEMENTS.
    """
    elements = _collect(root)
    features = block_features(elements)
    candidates = [el for el in elements if el.tag in CANDIDATE_TAGS or el is root]
    if not candidates or features[root].text == 0:
        return None
    scores = {el: block_score(el, features[el]) for el in candidates}

    # Children of each candidate in the candidate tree (nearest candidate ancestor).
    candidate_set = set(candidates)
    children: dict[HtmlElement, list[HtmlElement]] = {el: [] for el in candidates}
    for el in candidates:
        if el is root:
            continue
        for ancestor in el.iterancestors():
            if ancestor in candidate_set:
                children[ancestor].append(el)
                break

    best = max(candidates, key=lambda el: scores[el])
    while children[best]:
        child = max(children[best], key=lambda el: scores[el])
        if scores[child] < DESCEND_SHARE * scores[best] or scores[child] <= 0:
            break
        own_prose = sum(features[p].prose for p in best if p.tag == "p")
        if own_prose >= OWN_PARAGRAPH_PROSE:
            break  # paragraphs written right here: keep the block whole
        if best.tag == "article" and child.tag != "article":
            break  # the author drew this boundary: leaving it would drop the headline
        best = child

    winner = copy.deepcopy(best)
    winner.tail = None  # the text after the block belongs to its parent, not to the article
    return ScoredBlock(
        element=winner,
        score=round(scores[best], 1),
        path=root.getroottree().getpath(best),
        candidates=len(candidates),
    )
