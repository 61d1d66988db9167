"""A passage the reading already holds, read again: the page's second copy of a section.

Pages serve some of their text twice and show it once: a mobile and a desktop copy of a
section, one hidden by a media query (Miro's home page serves its hero three times); a
card's text again in its hover overlay; a Webflow page's gated copy of the article right
after it, hidden by a condition; a carousel's cloned slides. A static reader sees no style
sheet, so every copy comes through, and a corpus built from the reading holds the passage
twice. The refinement drops a run of leaf blocks (paragraphs, list items, headings, code:
blocks with no block inside them) that repeats, word for word and in order, a run ending
just before it, when the run is long enough not to repeat on purpose.

What repeats on purpose is kept: a single block every few blocks (the question put to each
guest of an interview, a card's "Add to cart", a credit line under every picture), and runs
far from their first (a meal plan's second week, a grid's cards sharing their specification
lines). A documentation page repeats its commands in each tab or section and keeps them
(``_typed``). On threads, shops and listings the reach is the whole reading
(``DISTANT_REPEATS``), for a copy that holds a paragraph: there it is a reply quoting an
earlier post, or a story card shown again in another shelf, more often than the page's
parallel structure.
"""

from __future__ import annotations

from lxml.html import HtmlElement

from ._postprocess import CleanContent
from ._reading import drop_from_reading
from ._text import BLOCK_TAGS, spaced_text, words
from ._types import TraceEntry

REPEATED_BLOCKS = "repeated-blocks"
"""The refinement's switch in ``ExtractOptions.rules``."""

DISTANT_REPEATS = "distant-repeats"
"""The switch of its wider reach, on the types ``_typed.DISTANT_REPEATS_ONLY_ON`` names: a copy
however far from its first (a reply quoting an earlier post without naming it, a story card
shown again in each of a news front page's shelves)."""

MIN_WORDS = 20
MIN_BLOCKS = 2
"""A copy holds this many words and blocks at least."""
MAX_GAP = 10
"""... and begins within this many blocks of its first's end. On the article benchmark, runs
of 20 words dropped anywhere cost a meal plan whose weeks share their supplements 0.38 F1
(runs of 5 blocks and 50 words, 0.25); single blocks near their first cost an interview 0.02
(the question put to each guest)."""
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
"""A run under a heading of its own is not a copy, however like the run before it: a meal
plan's "Plan F", the same meals as plan E under a new title. Not where the reach is the
whole reading (``DISTANT_REPEATS``): there a second shelf's heading ("Most read" over the
cards "Latest" showed) is what a distant copy sits under. On wcxb-dev (static) listings
0.7657 -> 0.7680 without the guard there (4331, QS's ranking introduction served again
under a second title, 0.42 -> 0.55; Medium's publication page 2972 0.52 -> 0.60), 2 pages
down by at most 0.011 (4354, a job board's featured post listed again)."""
PARAGRAPH_WORDS = 20
"""A copy far from its first holds a block of this many words at least (a post's paragraph, a
card's teaser): the lines a grid's cards share are shorter ("For Monitors: 5-22 lbs",
"M/Flex: Scalable multi-monitor arm system designed to support up to six monitors on a single
post" under each arm of Humanscale's, which the ground truth keeps: 4035 0.95 -> 0.81 without
this condition)."""
CANDIDATES = 16
"""Earlier copies of a block tried as the start of the run it repeats (the latest): a card's
"Add to cart" repeated a hundred times is not tried a hundred times."""


def _leaf_blocks(root: HtmlElement) -> list[HtmlElement]:
    """The block elements of ``root`` with no block element inside them, in document order."""
    return [
        element
        for element in root.iter(*BLOCK_TAGS)
        if element is not root and next(element.iterdescendants(*BLOCK_TAGS), None) is None
    ]


def select_repeated_blocks(root: HtmlElement, *, anywhere: bool = False) -> list[HtmlElement]:
    """The leaf blocks of ``root`` that make up a copy of the run of leaf blocks just
    before them (``MIN_WORDS``, ``MIN_BLOCKS``, ``MAX_GAP``, ``HEADINGS``); ``anywhere``, also
    of a run further back, when the copy holds a paragraph (``PARAGRAPH_WORDS``), under a
    heading of its own or not."""
    blocks = _leaf_blocks(root)
    said = [tuple(word.lower() for word in words(spaced_text(block))) for block in blocks]
    earlier: dict[tuple[str, ...], list[int]] = {}  # where each block's words were first
    found: list[HtmlElement] = []
    index = 0
    while index < len(blocks):
        length = _copy_length(said, index, earlier.get(said[index], []), anywhere)
        retitled = not anywhere and index > 0 and blocks[index - 1].tag in HEADINGS
        if length and not retitled:
            found.extend(blocks[index : index + length])
            index += length  # a copy's blocks are not the originals of later copies
            continue
        for at in range(index, index + max(length, 1)):  # a retitled run: read on after it
            if said[at]:
                earlier.setdefault(said[at], []).append(at)
        index += max(length, 1)
    return found


def _copy_length(said: list[tuple[str, ...]], index: int, starts: list[int], anywhere: bool) -> int:
    """How many blocks from ``index`` on make up a copy of the run from one of ``starts``
    (the last ``CANDIDATES``); 0 when none does."""
    longest = 0
    for start in starts[-CANDIDATES:]:
        length = 0
        while (
            index + length < len(said)
            and start + length < index
            and said[start + length] == said[index + length]
        ):
            length += 1
        copied = sum(len(block_words) for block_words in said[index : index + length])
        near = index - (start + length) <= MAX_GAP
        if not near and not (anywhere and _holds_paragraph(said[index : index + length])):
            continue
        if length >= MIN_BLOCKS and copied >= MIN_WORDS:
            longest = max(longest, length)
    return longest


def _holds_paragraph(run: list[tuple[str, ...]]) -> bool:
    return any(len(block_words) >= PARAGRAPH_WORDS for block_words in run)


def drop_repeated_blocks(content: CleanContent) -> tuple[CleanContent, TraceEntry | None]:
    """``content`` without its blocks' second copies, and the trace entry of what went
    (None: nothing)."""
    if not _some_line_repeats(content):
        return content, None
    return drop_from_reading(
        content,
        select_repeated_blocks,
        REPEATED_BLOCKS,
        "a run of blocks repeating, word for word, the run just before it (a copy for "
        "another screen size)",
    )


def drop_distant_repeats(content: CleanContent) -> tuple[CleanContent, TraceEntry | None]:
    """``drop_repeated_blocks`` reaching back to the start of the reading."""
    if not _some_line_repeats(content):
        return content, None
    return drop_from_reading(
        content,
        lambda root: select_repeated_blocks(root, anywhere=True),
        DISTANT_REPEATS,
        "a run of blocks repeating, word for word, a run the reading already holds (an "
        "earlier post quoted, a story card shown again in another shelf)",
    )


def _some_line_repeats(content: CleanContent) -> bool:
    """Whether a line of ``content``'s text repeats: when none does, no block does, and the
    reading need not be parsed."""
    lines = [line for line in (raw.strip() for raw in content.text.splitlines()) if line]
    return len(set(lines)) != len(lines)
