"""A forum post's counters and notes on a line of their own: "Posts: 1,234", "Likes Received:
103", "12 likes", "#3", "Joined", "Offline", a bare number, "Last edited: Jul 9, 2022",
"Reactions: Brian33 and felixen", "Location: SIN".

Forum software prints them beside every post (the author's post count and reputation, the
post's number in the thread, its likes and replies), inside the run of posts the extraction
keeps, and wcxb-dev's forum ground truths never hold them. They are told by their words,
and only when they make up a line: "I have 3 posts on this" is a sentence, and a bare
number is content on any other kind of page (a price, a table's cell), so the refinement
runs on forum pages only (``_typed``).

It runs on the page's final reading, after the block vote, not on each stage's candidate:
there it would change the neighbourhood the block model reads a post's blocks in (on
wcxb-dev's 113 forum pages, per candidate: mean F1 0.7738 -> 0.7784 with two pages down,
4311 by 0.03 as the vote then dropped posts; on the final reading 0.7738 -> 0.7781, none
down).
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from ._actions import normalised, stands_alone
from ._postprocess import CleanContent
from ._reading import drop_from_reading
from ._text import BLOCK_TAGS
from ._types import TraceEntry

POST_COUNTERS = "post-counters"
"""The refinement's switch in ``ExtractOptions.rules``."""

_COUNT = r"#?\d[\d,.]*k?"
_COUNTER = re.compile(
    rf"{_COUNT}"
    rf"|{_COUNT} (?:likes?|posts?|replies|reply|views?|points?|solutions?|messages?|reactions?"
    r"|votes?)"
    r"|(?:posts?|messages?|likes?(?: received)?|reaction score|points|joined|trophy points"
    rf"|best answers?|solutions?|reputation) ?:? ?(?:{_COUNT})?"
    r"|share|quote|reply|report|offline|online",
    re.IGNORECASE,
)
"""The whole text of a counter, as ``normalised`` leaves it (lower case, no end punctuation:
"#3" reads as "3", "Posts: 1,234" as "posts: 1,234")."""

MAX_CHARS = 40
"""Longer text is not a counter."""

_POST_NOTE = re.compile(
    r"last edited(?: by [^:]{1,40})?:? .{1,40}|edited \w+ \d{1,2}, \d{4}(?: by .{1,40})?"
    r"|reactions?: .{1,80}|original poster|location: .{1,40}|level \d+",
    re.IGNORECASE,
)
"""A post's notes of the same kind, with names or dates in them: XenForo's "Last edited: Jul
9, 2022" and "Reactions: Brian33, unixfool and felixen", Invision's "Edited October 30, 2025
by El Patron (see edit history)", a member's "Location: SIN", a badge's "Original Poster"."""
MAX_NOTE_CHARS = 120

_VERBATIM = frozenset({"pre", "code", "kbd", "samp", "table"})
"""A number in code or in a table is what the post says, not a counter."""


def _is_counter(element: HtmlElement) -> bool:
    text = element.text_content()
    if len(text) > MAX_NOTE_CHARS:
        return False
    said = normalised(text)
    return (
        bool((len(text) <= MAX_CHARS and _COUNTER.fullmatch(said)) or _POST_NOTE.fullmatch(said))
        and next(element.iterdescendants(*_VERBATIM), None) is None
    )


def _counters(root: HtmlElement) -> list[HtmlElement]:
    """The outermost elements of ``root`` whose whole text is a counter, outside code."""
    found: list[HtmlElement] = []
    pending = [child for child in root if isinstance(child.tag, str)]
    while pending:
        element = pending.pop()
        if element.tag in _VERBATIM:
            continue
        if _is_counter(element):
            found.append(element)
        else:
            pending.extend(child for child in element if isinstance(child.tag, str))
    return found


def select_counters(root: HtmlElement) -> list[HtmlElement]:
    """The counters of ``root`` that make up a line: a block (a line of its own in every
    output), or an inline element with nothing beside it but other counters."""
    found = _counters(root)
    chosen = set(found)
    return [el for el in found if el.tag in BLOCK_TAGS or stands_alone(el, chosen)]


def drop_counters(content: CleanContent) -> tuple[CleanContent, TraceEntry | None]:
    """``content`` without its counters, and the trace entry of what went (None: nothing)."""
    return drop_from_reading(
        content,
        select_counters,
        POST_COUNTERS,
        "a forum post's counters and notes standing alone (Posts: 1,234, #3, Last edited ...)",
    )
