"""A cleaned page cut into blocks, each with what the block model (``_blockvote``) reads of its
place in the page.

A block is a leaf block element taken whole (a paragraph, a heading, a list item, a table, a
cell of a layout, a button's label) or a run of text and inline elements lying loose in a
container between its block children. Each block carries its words, its link words,
its ancestors' tags and class names, how many siblings share its shape (a card in a grid of
cards), how often its text recurs on the page (a menu repeated in the footer) and where it
stands against the page's first ``<h1>``. One pass over the tree marks which elements hold a
block, so the cut is linear in the page's size, and the walk is iterative: a page can nest as
deep as libxml2 allows.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lxml.html import HtmlElement

from ._records import find_run
from ._text import spaced_text
from ._token_score import token_list

LEAF_TAGS = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table", "li", "dt", "dd"}
    | {"figcaption", "caption", "address", "td", "th", "summary", "label", "button", "option"}
)
"""Blocks taken whole: nothing inside them is cut further."""
STRUCTURE_TAGS = LEAF_TAGS | {
    "div", "section", "article", "ul", "ol", "main", "aside", "nav", "header", "footer", "form",
}  # fmt: skip
"""An element holding one of these is cut into its parts; one holding none is inline text."""
SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "head", "select"})
ANCESTORS_READ = 8
"""Ancestors whose tag and class names a block carries (the nearest first)."""
DEPTH_CAP = 30
"""Depth is counted up to here: past it, all that matters is that the block is deep."""
SHAPE_LEVELS = 5
"""How many levels up a block's repeated shape is looked for (a card's title sits a few
levels inside the card)."""

_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class PageBlock:
    """One block of a page, with the facts the block model weighs."""

    element: HtmlElement  # the block, or the container of a run of loose content
    run: Inline | None  # loose content between the container's blocks; None: element whole
    text: str
    tokens: tuple[str, ...]  # lower-cased \w+ tokens: the benchmark's, and the model's
    link_tokens: int
    depth: int
    ancestors: tuple[tuple[str, str], ...]  # (tag, "class id role"), nearest first
    siblings_alike: int  # most siblings of the same tag and class, up to SHAPE_LEVELS up
    repeats: int  # blocks on the page with the same tokens, this one included
    in_run: bool  # inside one of the records of the page's run (``_records.find_run``)
    from_h1: int  # block index minus the first <h1>'s (0 when the page has none)
    page_has_h1: bool


def tokens_of(text: str) -> tuple[str, ...]:
    """The lower-cased ``\\w+`` tokens of a text: the benchmark's metric's (``_token_score``)."""
    return tuple(token_list(text))


def segment(body: HtmlElement) -> list[PageBlock]:
    """The blocks of ``body`` in page order (blocks without words left out)."""
    cut = _cut(body)
    tokenised = [tokens_of(text) for _, _, text in cut]
    repeats = Counter(tokenised)
    records = _run_records(body)
    h1_at = next((i for i, (element, _, _) in enumerate(cut) if element.tag == "h1"), -1)
    shapes: dict[HtmlElement, Counter[tuple[object, ...]]] = {}
    blocks = []
    for index, ((element, run, text), tokens) in enumerate(zip(cut, tokenised, strict=True)):
        blocks.append(
            PageBlock(
                element=element,
                run=run,
                text=text,
                tokens=tokens,
                link_tokens=_link_tokens(element) if run is None else _run_links(run),
                depth=_depth(element),
                ancestors=_ancestors(element),
                siblings_alike=_siblings_alike(element, shapes),
                repeats=repeats[tokens],
                in_run=_inside(element, records),
                from_h1=index - h1_at if h1_at >= 0 else 0,
                page_has_h1=h1_at >= 0,
            )
        )
    return blocks


def _structured(body: HtmlElement) -> set[HtmlElement]:
    """Every element that holds a structure element below it, in one bottom-up pass."""
    holders: set[HtmlElement] = set()
    for element in reversed(list(body.iter())):
        parent = element.getparent()
        if parent is not None and (element in holders or element.tag in STRUCTURE_TAGS):
            holders.add(parent)
    return holders


Inline = tuple[HtmlElement | str, ...]
"""A run of loose content: text and inline elements, in order."""


def _cut(body: HtmlElement) -> list[tuple[HtmlElement, Inline | None, str]]:
    holders = _structured(body)
    found: list[tuple[HtmlElement, Inline | None, str]] = []
    stack: list[HtmlElement | tuple[HtmlElement, Inline]] = [body]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            container, run = item
            _add(found, container, run, " ".join(_run_text(run)))
            continue
        if not isinstance(item.tag, str) or item.tag in SKIPPED_TAGS:
            continue
        if item.tag in LEAF_TAGS:
            _add(found, item, None, spaced_text(item))  # minified cells must not run together
            continue
        stack.extend(reversed(_parts(item, holders)))
    return found


def _parts(
    container: HtmlElement, holders: set[HtmlElement]
) -> list[HtmlElement | tuple[HtmlElement, Inline]]:
    """The container's structure children, and the runs of loose content between them."""
    parts: list[HtmlElement | tuple[HtmlElement, Inline]] = []
    run: list[HtmlElement | str] = [container.text] if container.text else []
    for child in container:
        if isinstance(child.tag, str) and (child in holders or child.tag in STRUCTURE_TAGS):
            if run:
                parts.append((container, tuple(run)))
            parts.append(child)
            run = []
        elif isinstance(child.tag, str) and child.tag not in SKIPPED_TAGS:
            run.append(child)
        if child.tail:
            run.append(child.tail)
    if run:
        parts.append((container, tuple(run)))
    return parts


def _run_text(run: Inline) -> list[str]:
    return [part if isinstance(part, str) else spaced_text(part) for part in run]


def _add(
    found: list[tuple[HtmlElement, Inline | None, str]],
    element: HtmlElement,
    run: Inline | None,
    text: str,
) -> None:
    if _TOKEN.search(text):
        found.append((element, run, " ".join(text.split())))


def _link_tokens(element: HtmlElement) -> int:
    return sum(len(_TOKEN.findall(link.text_content())) for link in element.iter("a"))


def _run_links(run: Inline) -> int:
    return sum(_link_tokens(part) for part in run if not isinstance(part, str))


def _depth(element: HtmlElement) -> int:
    depth, node = 0, element.getparent()
    while node is not None and depth < DEPTH_CAP:
        depth, node = depth + 1, node.getparent()
    return depth


def _ancestors(element: HtmlElement) -> tuple[tuple[str, str], ...]:
    found: list[tuple[str, str]] = []
    node: HtmlElement | None = element
    while node is not None and len(found) < ANCESTORS_READ:
        marks = f"{node.get('class') or ''} {node.get('id') or ''} {node.get('role') or ''}"
        found.append((str(node.tag), marks))
        node = node.getparent()
    return tuple(found)


def _siblings_alike(
    element: HtmlElement, shapes: dict[HtmlElement, Counter[tuple[object, ...]]]
) -> int:
    most, node = 0, element
    for _ in range(SHAPE_LEVELS):
        parent = node.getparent()
        if parent is None:
            break
        if parent not in shapes:  # each parent's children counted once, not once a block
            shapes[parent] = Counter((child.tag, child.get("class")) for child in parent)
        alike = shapes[parent][(node.tag, node.get("class"))]
        if alike >= 2:
            most = max(most, alike)
        node = parent
    return most


def _run_records(body: HtmlElement) -> frozenset[HtmlElement]:
    run = find_run(body)
    return frozenset(run.records) if run is not None else frozenset()


def _inside(element: HtmlElement, records: frozenset[HtmlElement]) -> bool:
    if not records:
        return False
    node: HtmlElement | None = element
    while node is not None:
        if node in records:
            return True
        node = node.getparent()
    return False
