"""Merging two readings of a page block by block, in the page's order.

Each reading (clean HTML from a stage) is cut into blocks: paragraphs, headings, list items,
tables, code, quotes, figures, and text lying loose in a wrapper. The two block sequences
are aligned on their words (``difflib``), so a block both readings kept appears once, and a
block only one kept appears where it stood in the page, between its neighbours. A block of
the second reading whose words all lie inside the first's text (cut differently: one
paragraph there, two here) is not repeated. List items come back inside a list of their
kind.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher

import lxml.html
from lxml.html import HtmlElement

from ._parse import parse_fragment
from ._postprocess import CleanContent, html_to_text
from ._text import WORDLESS_CONTENT, spaced_text, words

LEAF_BLOCKS = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table", "figure", "hr"}
    | {"dl", "address", "details"}
)
"""Blocks taken whole: nothing inside them is a block of its own for the merge."""
LISTS = frozenset({"ul", "ol"})
CONTAINERS = frozenset({"div", "section", "article", "main", "body", "header", "footer", "aside"})


@dataclass(frozen=True)
class Block:
    """One block of a reading: its element (owned by the merge) and its words as a key."""

    element: HtmlElement
    key: str
    list_tag: str | None = None  # "ul" or "ol" for a list item


@dataclass(frozen=True)
class MergeCounts:
    """How many blocks of the merge came from both readings, the first only, the second."""

    both: int
    first_only: int
    second_only: int


def blocks(html: str) -> list[Block]:
    """The blocks of an HTML fragment, in order. A block without words is kept when it is or
    holds ``WORDLESS_CONTENT`` (a picture, a rule; not a heading the readers emptied, a
    disclosure's ``<summary>`` whose icon went); its key is empty."""
    if not html.strip():
        return []
    return [
        block
        for block in _walk(parse_fragment(html))
        if block.key or any(node.tag in WORDLESS_CONTENT for node in block.element.iter())
    ]


def _walk(root: HtmlElement) -> Iterator[Block]:
    # Iterative: a reading can be nested as deep as the page it came from.
    stack: list[HtmlElement | _Run] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, _Run):
            paragraph = item.paragraph()
            yield Block(paragraph, _key(spaced_text(paragraph)))
            continue
        tag = item.tag if isinstance(item.tag, str) else ""
        if tag in LISTS:
            stack.extend(reversed([child for child in item if child.tag == "li"]))
        elif tag == "li":
            yield Block(detached(item), _key(spaced_text(item)), list_tag(item))
        elif tag in LEAF_BLOCKS or item is not root and tag not in CONTAINERS:
            yield Block(detached(item), _key(spaced_text(item)))
        else:
            stack.extend(reversed(_parts(item)))


class _Run:
    """Text and inline elements lying loose in a container between two blocks."""

    def __init__(self) -> None:
        self.parts: list[HtmlElement | str] = []

    def holds_something(self) -> bool:
        """Whether the run has words or an element (a picture holds no words)."""
        return any(not isinstance(part, str) or _key(part) for part in self.parts)

    def paragraph(self) -> HtmlElement:
        return paragraph_of(self.parts)


def paragraph_of(parts: Iterable[HtmlElement | str]) -> HtmlElement:
    """A ``<p>`` of loose text and copies of inline elements (without their tails), in order."""
    paragraph = lxml.html.Element("p")
    for part in parts:
        if isinstance(part, str):
            if len(paragraph):
                paragraph[-1].tail = (paragraph[-1].tail or "") + part
            else:
                paragraph.text = (paragraph.text or "") + part
        else:
            paragraph.append(detached(part))
    return paragraph


def _is_block(element: HtmlElement) -> bool:
    tag = element.tag
    return tag in LEAF_BLOCKS or tag in LISTS or tag in CONTAINERS or tag == "li"


def _parts(container: HtmlElement) -> list[HtmlElement | _Run]:
    """A container's block children, and runs of the inline content between them, in order."""
    parts: list[HtmlElement | _Run] = []
    run = _Run()

    def add_text(text: str | None) -> None:
        if text:
            run.parts.append(text)

    add_text(container.text)
    for child in container:
        if isinstance(child.tag, str) and _is_block(child):
            if run.holds_something():
                parts.append(run)
            run = _Run()
            parts.append(child)
        elif isinstance(child.tag, str):
            run.parts.append(child)
        add_text(child.tail)
    if run.holds_something():
        parts.append(run)
    return parts


def list_tag(item: HtmlElement) -> str:
    parent = item.getparent()
    return "ol" if parent is not None and parent.tag == "ol" else "ul"


def detached(element: HtmlElement) -> HtmlElement:
    """A copy of ``element`` without its tail (the tail is the next part's text)."""
    duplicate = copy.deepcopy(element)
    duplicate.tail = None
    return duplicate


def _key(text: str) -> str:
    return " ".join(word.lower() for word in words(text))


def merge(first: list[Block], second: list[Block]) -> tuple[list[Block], MergeCounts]:
    """The union of two block sequences in page order: ``first``'s blocks, with ``second``'s
    inserted where the alignment puts them, unless their words lie inside ``first``'s text."""
    merged, equal, contained = _woven(first, list(_aligned(first, second)), _anywhere)
    counts = MergeCounts(
        both=equal + contained,
        first_only=len(first) - equal,
        second_only=len(merged) - len(first),
    )
    return merged, counts


INTERIOR_MIN_WORDS = 4
"""A block of the second reading shorter than this is not put inside the first: between two
blocks both readings hold, such lines are controls ("Read more", "Continue Reading") more
often than content. Tried on the rendered wcxb-dev pages whose reading is Readability.js's
alone (articles that show their type; a throwaway dump of every reading): all 0.8782 ->
0.8787 with no floor (+1.13 of summed F1, -0.25), 0.8788 at 4 words (+1.17, -0.22) and at 8
(+1.07, -0.14)."""


def interior(first: list[Block], second: list[Block]) -> tuple[list[Block], int]:
    """``first``'s blocks with the blocks of ``second`` that the alignment puts between two
    blocks both readings hold (never before the first such block nor after the last: what lies
    around a reading is where the two disagree on its edges), of ``INTERIOR_MIN_WORDS`` words
    or more and not inside ``first``'s text; and how many were put in."""
    aligned = list(_aligned(first, second))
    shared = [index for index, (operation, _, _) in enumerate(aligned) if operation == "equal"]
    if len(shared) < 2:
        return first, 0

    def inside(index: int, block: Block) -> bool:
        return shared[0] < index < shared[-1] and len(block.key.split()) >= INTERIOR_MIN_WORDS

    filled, _, _ = _woven(first, aligned, inside)
    return filled, len(filled) - len(first)


def _anywhere(index: int, block: Block) -> bool:
    return True


def _woven(
    first: list[Block],
    aligned: list[tuple[str, list[Block], list[Block]]],
    admit: Callable[[int, Block], bool],
) -> tuple[list[Block], int, int]:
    """``first``'s blocks with the second reading's blocks of ``aligned`` (the two readings'
    alignment) that ``admit`` takes (given the alignment step's index) and whose words are not
    inside ``first``'s text; and how many of ``first``'s blocks the alignment matched, and how
    many admitted blocks were inside its text."""
    first_text = f" {' '.join(block.key for block in first)} "
    first_shingles = _shingles(first_text.split())
    first_glued = _glued(first_text)
    woven: list[Block] = []
    equal = contained = 0
    for index, (operation, ours, theirs) in enumerate(aligned):
        woven.extend(ours)
        if operation == "equal":
            equal += len(ours)
            continue
        for block in theirs:
            if not block.key:
                continue  # a picture only the second reading kept: words are what it vouches for
            if not admit(index, block):
                continue
            if _contained(block.key, first_text, first_shingles) or _glued_inside(
                block.key, first_glued
            ):
                contained += 1
            else:
                woven.append(block)
    return woven, equal, contained


def restyle(first: list[Block], second: list[Block]) -> tuple[list[Block], MergeCounts]:
    """``second``'s selection of blocks, each in ``first``'s markup where the two readings
    hold the same block (one reader keeps code and its language, the other chose better)."""
    selected: list[Block] = []
    equal = 0
    for operation, ours, theirs in _aligned(first, second):
        if operation == "equal":
            selected.extend(ours)
            equal += len(ours)
            continue
        for block in theirs:
            twin = next((mine for mine in ours if _similar(mine.key, block.key)), None)
            equal += twin is not None
            if twin is not None and selected and _opens_with(twin, selected[-1]):
                selected.pop()  # the twin holds it: a disclosure's <summary>, read as a heading
            selected.append(twin or block)
        # A picture only the first reading has: the second reader was not asked for pictures.
        selected.extend(block for block in ours if not block.key)
    counts = MergeCounts(both=equal, first_only=len(first) - equal, second_only=len(second) - equal)
    return selected, counts


def _opens_with(block: Block, previous: Block) -> bool:
    """Whether ``block``'s words begin with all of ``previous``'s: the second reader split
    one block of the first in two (a ``<details>`` into its summary and its text)."""
    return bool(previous.key) and block.key.startswith(previous.key + " ")


def _aligned(
    first: list[Block], second: list[Block]
) -> Iterator[tuple[str, list[Block], list[Block]]]:
    """The alignment of two block sequences on their words: (operation, first's blocks,
    second's blocks) in page order, as ``difflib`` gives them."""
    matcher = SequenceMatcher(
        a=[block.key for block in first], b=[block.key for block in second], autojunk=False
    )
    for operation, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        yield operation, first[a_start:a_end], second[b_start:b_end]


CONTAINED_SHARE = 0.6
"""A block of the second reading whose word triples are at least this share in the first
reading is the same text cut or trimmed differently (a post with or without its date line),
not a block of its own."""


def _shingles(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + 3]) for i in range(len(tokens) - 2)}


def _contained(key: str, first_text: str, first_shingles: set[tuple[str, ...]]) -> bool:
    if f" {key} " in first_text:
        return True
    shingles = _shingles(key.split())
    return bool(shingles) and len(shingles & first_shingles) / len(shingles) >= CONTAINED_SHARE


GLUED_MIN_CHARS = 12
"""A block compared without its spaces must have this many letters and digits: shorter, its
letters are found by chance."""


def _glued(key: str) -> str:
    return key.replace(" ", "")


def _glued_inside(key: str, first_glued: str) -> bool:
    """Whether ``key``'s letters, spaces aside, run inside the first reading's: trafilatura
    runs a list item's divs together ("Screen Size64.5 inches"), so its item's words are
    not the first reading's ("size64"), and a merge kept both copies."""
    glued = _glued(key)
    return len(glued) >= GLUED_MIN_CHARS and glued in first_glued


def _similar(first: str, second: str) -> bool:
    """Whether two blocks are one block read slightly differently (a word of code or a link
    more or less, or words run together): most of each one's word triples are in the
    other."""
    if first == second or (
        len(_glued(first)) >= GLUED_MIN_CHARS and _glued(first) == _glued(second)
    ):
        return True
    a, b = _shingles(first.split()), _shingles(second.split())
    shared = len(a & b)
    return bool(a and b) and min(shared / len(a), shared / len(b)) >= CONTAINED_SHARE


def to_element(merged: list[Block]) -> HtmlElement:
    """A ``<div>`` holding the blocks, consecutive list items of one kind in one list."""
    root = lxml.html.Element("div")
    current_list: HtmlElement | None = None
    for block in merged:
        if block.list_tag is None:
            current_list = None
            root.append(block.element)
            continue
        if current_list is None or current_list.tag != block.list_tag:
            current_list = lxml.html.Element(block.list_tag)
            current_list.text = "\n"
            root.append(current_list)
        block.element.tail = "\n"
        current_list.append(block.element)
    return root


def as_content(selected: list[Block]) -> CleanContent:
    """The blocks as a reading: one per line and no wrapper, as every stage's content is
    written."""
    root = to_element(selected)
    html = "\n".join(lxml.html.tostring(block, encoding="unicode").strip() for block in root)
    return CleanContent(html=html, text=html_to_text(html))
